package dev.capability.kernel.core.internal.policy;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Environment variables that make a program load or run code it was not asked to: dynamic
 * loader settings, interpreter and JVM option variables, shell start-up hooks. A policy may
 * neither inherit nor set them; only {@code GIT_*} may be set to a fixed value by the operator,
 * since git reads many harmless settings that way. Names are compared case-insensitively.
 */
final class EnvironmentDenyList {
  private EnvironmentDenyList() {}

  private static final Set<String> NAMES = Set.of(
      "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "JAVA_OPTS", "CLASSPATH",
      "MAVEN_OPTS", "MAVEN_ARGS", "GRADLE_OPTS",
      "NODE_OPTIONS", "NODE_PATH",
      "PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB", "RUBYOPT", "RUBYLIB",
      "BASH_ENV", "ENV", "IFS", "PS4", "SHELLOPTS", "BASHOPTS", "PROMPT_COMMAND", "CDPATH",
      "GCONV_PATH", "GLIBC_TUNABLES", "OPENSSL_CONF", "OPENSSL_ENGINES", "LESSOPEN", "LESSCLOSE");

  private static final List<String> PREFIXES = List.of("LD_", "DYLD_", "PYTHON", "BASH_FUNC_", "NPM_CONFIG_");

  private static final String GIT_PREFIX = "GIT_";

  /**
   * Names a request may never give, although an operator may inherit or set them: they decide
   * which executable the kernel resolves ({@code PATH}) or where programs read configuration that
   * can run commands ({@code HOME} holds {@code ~/.gitconfig}), and a request's values come from
   * the untrusted party.
   */
  private static final Set<String> NEVER_FROM_REQUESTS = Set.of("PATH", "HOME", "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS");

  /**
   * Why {@code name} may not be passed to a command, or empty when it may.
   *
   * @param setByOperator true for a fixed value from the policy, false for a name inherited from the host
   */
  static Optional<String> reason(String name, boolean setByOperator) {
    String upper = name.toUpperCase(Locale.ROOT);
    if (NAMES.contains(upper)) {
      return Optional.of(name + " makes programs load or run code and is never passed to commands");
    }
    for (String prefix : PREFIXES) {
      if (upper.startsWith(prefix)) {
        return Optional.of(name + " (" + prefix + "*) makes programs load or run code and is never passed to commands");
      }
    }
    if (!setByOperator && upper.startsWith(GIT_PREFIX)) {
      return Optional.of(name + " (GIT_*) may only be set to a fixed value by the policy, never inherited");
    }
    return Optional.empty();
  }

  /** Why a request may not give {@code name} a value, or empty when the policy may allow it. */
  static Optional<String> requestReason(String name) {
    Optional<String> denied = reason(name, false);
    if (denied.isPresent()) {
      return denied;
    }
    if (NEVER_FROM_REQUESTS.contains(name.toUpperCase(Locale.ROOT))) {
      return Optional.of(name + " decides what runs or which configuration is read and is never taken from a request");
    }
    return Optional.empty();
  }
}
