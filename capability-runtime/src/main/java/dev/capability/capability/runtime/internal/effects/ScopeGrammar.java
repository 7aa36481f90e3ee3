package dev.capability.capability.runtime.internal.effects;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.EffectKind;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.network.EgressDestination;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The grammar of each effect kind's scope. Wildcards are refused wherever they would make a scope
 * open-ended; the one wildcard allowed is a whole {@code *} argument of {@code process.spawn},
 * which stands for exactly one argument.
 */
public final class ScopeGrammar {
  private static final int MAX_SCOPE = 512;
  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
  private static final Pattern IPV4 =
      Pattern.compile("(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9a-f:.]{2,45}");
  private static final Pattern PORT = Pattern.compile("[1-9][0-9]{0,4}");
  private static final Pattern SECRET = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,127}");
  private static final Pattern DATABASE = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");
  private static final Pattern MAIL_LOCAL = Pattern.compile("[A-Za-z0-9._%+-]{1,64}");
  private static final Pattern ARGUMENT = Pattern.compile("[^*?\\s]+|\\*");
  /** The mechanisms of {@code code.dynamic}, each a family of APIs the effect scan flags. */
  private static final List<String> DYNAMIC_CODE = List.of("reflection", "method-handles", "proxy", "service-loader");

  private ScopeGrammar() {}

  /** Refuses {@code scope} unless it is a bounded, well-formed scope of {@code kind}. */
  public static void check(EffectKind kind, String scope) {
    if (scope.isEmpty() || scope.length() > MAX_SCOPE) {
      throw invalid(kind, scope, "must have 1 to " + MAX_SCOPE + " characters");
    }
    for (int i = 0; i < scope.length(); i++) {
      char c = scope.charAt(i);
      if (c < 0x20 || c == 0x7f || Character.isISOControl(c)) {
        throw invalid(kind, scope, "contains a control character at index " + i);
      }
    }
    for (int i = 0; i < scope.length(); ) {
      int cp = scope.codePointAt(i);
      if (!visible(cp)) {
        throw invalid(
            kind, scope, "contains an invisible or reordering character U+" + String.format("%04X", cp) + " at index " + i
                + " (it would display misleadingly in an approval prompt)");
      }
      i += Character.charCount(cp);
    }
    if (scope.contains("**")) {
      throw unbounded(kind, scope, "'**' matches everything below");
    }
    switch (kind) {
      case FILESYSTEM_READ, FILESYSTEM_WRITE, GIT_MUTATE -> checkPath(kind, scope, scope);
      case NETWORK_CONNECT -> checkHostPort(kind, scope);
      case PROCESS_SPAWN -> checkSpawn(kind, scope);
      case SECRETS_READ -> checkName(kind, scope, SECRET, "a secret name");
      case DATABASE_WRITE -> checkName(kind, scope, DATABASE, "a database name");
      case EMAIL_SEND -> checkMail(kind, scope);
      case CODE_DYNAMIC -> {
        if (!DYNAMIC_CODE.contains(scope)) {
          throw invalid(kind, scope, "expected one of " + String.join(", ", DYNAMIC_CODE));
        }
      }
    }
  }

  private static void checkPath(EffectKind kind, String scope, String path) {
    if (path.equals("/") || path.equals(".") || path.equals("~")) {
      throw unbounded(kind, scope, "'" + path + "' is a whole tree");
    }
    if (path.indexOf('*') >= 0 || path.indexOf('?') >= 0 || path.indexOf('[') >= 0) {
      throw unbounded(kind, scope, "paths take no wildcards");
    }
    if (path.indexOf('\\') >= 0 || path.startsWith("~") || path.indexOf(':') >= 0) {
      throw invalid(kind, scope, "a path uses '/' only and no '~' or ':'");
    }
    String relative = path.startsWith("/") ? path.substring(1) : path;
    for (String segment : relative.split("/", -1)) {
      if (segment.equals("..")) {
        throw unbounded(kind, scope, "'..' escapes the scope");
      }
      if (segment.isEmpty() || segment.equals(".")) {
        throw invalid(kind, scope, "a path has no empty or '.' segments and no trailing '/'");
      }
    }
  }

  private static void checkHostPort(EffectKind kind, String scope) {
    int colon = scope.lastIndexOf(':');
    if (colon <= 0) {
      throw invalid(kind, scope, "expected host:port");
    }
    String host = scope.substring(0, colon);
    String port = scope.substring(colon + 1);
    if (host.contains("*") || port.contains("*")) {
      throw unbounded(kind, scope, "hosts and ports take no wildcards");
    }
    if (!PORT.matcher(port).matches() || Integer.parseInt(port) > 65535) {
      throw invalid(kind, scope, "port must be 1 to 65535 without leading zeros");
    }
    if (host.startsWith("[") && host.endsWith("]")) {
      String address = host.substring(1, host.length() - 1);
      if (!IPV6.matcher(address).matches() || !isEgressDestination(scope)) {
        throw invalid(kind, scope, "malformed IPv6 address");
      }
      if (address.replace(":", "").replace("0", "").isEmpty()) {
        throw unbounded(kind, scope, "the unspecified address means every address");
      }
      return;
    }
    if (IPV4.matcher(host).matches()) {
      if (host.equals("0.0.0.0") || host.equals("255.255.255.255")) {
        throw unbounded(kind, scope, "'" + host + "' means every address");
      }
      return;
    }
    checkDomain(kind, scope, host);
  }

  /** Whether the proxy's grammar reads {@code scope}: a granted scope must be one it can enforce. */
  private static boolean isEgressDestination(String scope) {
    try {
      EgressDestination.parse(scope);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static void checkDomain(EffectKind kind, String scope, String host) {
    if (host.length() > 253) {
      throw invalid(kind, scope, "host name longer than 253 characters");
    }
    for (String label : host.split("\\.", -1)) {
      if (!DNS_LABEL.matcher(label).matches()) {
        throw invalid(kind, scope, "host must be a lower-case DNS name, IPv4 or [IPv6] address");
      }
    }
  }

  private static void checkSpawn(EffectKind kind, String scope) {
    String[] tokens = scope.split(" ", -1);
    String executable = tokens[0];
    if (executable.equals("*")) {
      throw unbounded(kind, scope, "the executable must be named");
    }
    if (!executable.startsWith("/")) {
      throw invalid(kind, scope, "the executable must be an absolute path");
    }
    checkPath(kind, scope, executable);
    for (int i = 1; i < tokens.length; i++) {
      if (!ARGUMENT.matcher(tokens[i]).matches()) {
        throw invalid(
            kind,
            scope,
            "argument " + i + " must be a literal without wildcards or a whole '*'"
                + " (one argument); arguments are separated by single spaces");
      }
    }
  }

  private static void checkName(EffectKind kind, String scope, Pattern pattern, String what) {
    if (scope.contains("*")) {
      throw unbounded(kind, scope, "names take no wildcards");
    }
    if (!pattern.matcher(scope).matches()) {
      throw invalid(kind, scope, "expected " + what + " matching " + pattern.pattern());
    }
  }

  private static void checkMail(EffectKind kind, String scope) {
    if (scope.contains("*")) {
      throw unbounded(kind, scope, "addresses take no wildcards");
    }
    int at = scope.indexOf('@');
    if (at < 0 || at != scope.lastIndexOf('@')) {
      throw invalid(kind, scope, "expected user@domain or @domain");
    }
    String local = scope.substring(0, at);
    if (!local.isEmpty() && !MAIL_LOCAL.matcher(local).matches()) {
      throw invalid(kind, scope, "malformed local part");
    }
    String domain = scope.substring(at + 1);
    if (!domain.contains(".")) {
      throw unbounded(kind, scope, "a domain needs at least two labels");
    }
    checkDomain(kind, scope, domain);
  }

  private static CapabilityException invalid(EffectKind kind, String scope, String why) {
    return new CapabilityException(
        CapabilityCodes.EFFECT_SCOPE_INVALID,
        "effect " + kind.id() + " scope '" + printable(scope) + "' is malformed: " + why);
  }

  private static CapabilityException unbounded(EffectKind kind, String scope, String why) {
    return new CapabilityException(
        CapabilityCodes.EFFECT_SCOPE_UNBOUNDED,
        "effect " + kind.id() + " scope '" + printable(scope) + "' is unbounded: " + why);
  }

  /**
   * Whether {@code cp} shows as itself: not a format character (bidirectional overrides,
   * zero-width), separator other than the ASCII space, private-use, unassigned or lone surrogate.
   */
  private static boolean visible(int cp) {
    return switch (Character.getType(cp)) {
      case Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.PRIVATE_USE,
          Character.UNASSIGNED, Character.SURROGATE -> false;
      case Character.SPACE_SEPARATOR -> cp == ' ';
      default -> true;
    };
  }

  /** Scopes come from untrusted manifests; keep control characters out of messages and logs. */
  public static String printable(String text) {
    StringBuilder out = new StringBuilder();
    text.codePoints()
        .limit(200)
        .forEach(
            cp -> {
              if (cp < 0x20 || cp == 0x7f || Character.getType(cp) == Character.FORMAT
                  || Character.isISOControl(cp)) {
                out.append(String.format("\\u%04x", cp));
              } else {
                out.appendCodePoint(cp);
              }
            });
    return out.toString();
  }
}
