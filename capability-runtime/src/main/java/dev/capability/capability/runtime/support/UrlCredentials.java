package dev.capability.capability.runtime.support;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps credentials that a URL carries out of messages, logs, exceptions and printed or JSON
 * output. Two kinds are replaced by the word {@value #REDACTED}:
 *
 * <ul>
 *   <li>the user information of the authority, whole ({@code user:password@}, {@code token@});
 *   <li>the value of a query or fragment parameter whose name looks like a secret: after lower-casing
 *       and dropping everything but letters and digits, a name that is {@code sig}, {@code key},
 *       {@code pass}, {@code pwd} or {@code auth}, that ends in {@code key} ({@code api_key},
 *       {@code Subscription-Key}), or that contains {@code token}, {@code secret}, {@code password},
 *       {@code passwd}, {@code signature}, {@code credential}, {@code authorization} or {@code
 *       session} ({@code access_token}, {@code X-Amz-Signature}, {@code X-Amz-Credential},
 *       {@code client_secret}).
 * </ul>
 *
 * <p>Everything else stays as written, so a message still names the scheme, host, port and path,
 * and a URL that carries none of these is returned unchanged. A URL that {@link URI} reads with a
 * host has its user information where {@link URI} finds it: before the last {@code @} ahead of
 * the first {@code /}, {@code ?} or {@code #} after {@code //}. Any other text (malformed, or an
 * authority {@link URI} cannot read as host and port) is treated cautiously: when no {@code @}
 * comes before that point, everything between the first {@code //} and the last {@code @} is
 * hidden, even if that hides the host too.
 * Nothing here throws on malformed input.
 */
public final class UrlCredentials {
  /** What replaces the user information and each secret parameter value. */
  public static final String REDACTED = "redacted";

  private static final Pattern URL_START = Pattern.compile("(?i)\\b[a-z][a-z0-9+.-]*://");
  private static final Set<String> SECRET_NAMES = Set.of("sig", "key", "pass", "pwd", "auth");
  private static final List<String> SECRET_PARTS =
      List.of("token", "secret", "password", "passwd", "signature", "credential", "authorization", "session");

  private UrlCredentials() {}

  /** {@code url} without the credentials it carries; the whole text is taken as one URL. */
  public static String redacted(String url) {
    int slashes = url.indexOf("//");
    String result = url;
    if (slashes >= 0) {
      int authorityStart = slashes + 2;
      int authorityEnd = indexOfAny(url, authorityStart, "/?#");
      int at = url.lastIndexOf('@', authorityEnd - 1);
      if (at < authorityStart && !readsWithHost(url)) {
        // A password with an unencoded '/', '?' or '#' ends the authority early: hide up to the last '@'.
        at = url.lastIndexOf('@');
      }
      if (at >= authorityStart) {
        result = url.substring(0, authorityStart) + REDACTED + url.substring(at);
      }
    }
    return redactParameters(result, slashes < 0 ? 0 : slashes + 2);
  }

  /** {@code uri} without the credentials it carries, as {@link #redacted(String)}. */
  public static URI redacted(URI uri) {
    String text = uri.toString();
    String redacted = redacted(text);
    if (redacted.equals(text)) {
      return uri;
    }
    try {
      return new URI(redacted);
    } catch (URISyntaxException e) {
      // Unreachable for a URI that parsed: the replacement is made of letters. Fail closed anyway.
      return URI.create(uri.getScheme() == null ? REDACTED + ":url" : uri.getScheme() + "://" + REDACTED + "@" + REDACTED);
    }
  }

  /**
   * {@code text} (a message, a log line) with every URL in it redacted as by {@link
   * #redacted(String)}. A URL starts at {@code scheme://} and ends at white space, a quote or an
   * angle bracket, so a password with an unencoded space is only hidden by {@link
   * #redacted(String)} on the URL itself.
   */
  public static String redactedIn(String text) {
    Matcher start = URL_START.matcher(text);
    StringBuilder out = null;
    int copied = 0;
    int from = 0;
    while (start.find(from)) {
      int end = start.end();
      while (end < text.length() && !endsUrl(text.charAt(end))) {
        end++;
      }
      String url = text.substring(start.start(), end);
      String redacted = redacted(url);
      if (!redacted.equals(url)) {
        if (out == null) {
          out = new StringBuilder(text.length());
        }
        out.append(text, copied, start.start()).append(redacted);
        copied = end;
      }
      from = end;
    }
    if (out == null) {
      return text;
    }
    return out.append(text, copied, text.length()).toString();
  }

  /** Whether {@code name}, a query or fragment parameter's name, looks like it names a secret. */
  static boolean secretName(String name) {
    StringBuilder letters = new StringBuilder(name.length());
    String decoded = percentDecodedAscii(name).toLowerCase(Locale.ROOT);
    for (int i = 0; i < decoded.length(); i++) {
      char c = decoded.charAt(i);
      if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
        letters.append(c);
      }
    }
    String normalized = letters.toString();
    if (SECRET_NAMES.contains(normalized) || normalized.endsWith("key")) {
      return true;
    }
    for (String part : SECRET_PARTS) {
      if (normalized.contains(part)) {
        return true;
      }
    }
    return false;
  }

  private static boolean readsWithHost(String url) {
    try {
      URI uri = new URI(url);
      return uri.getRawAuthority() == null || uri.getHost() != null;
    } catch (URISyntaxException e) {
      return false;
    }
  }

  /** Replaces the values of secret parameters in the query and the fragment, after {@code from}. */
  private static String redactParameters(String url, int from) {
    int question = url.indexOf('?', from);
    int hash = url.indexOf('#', from);
    if (question < 0 && hash < 0) {
      return url;
    }
    StringBuilder out = new StringBuilder(url.length());
    int queryStart = question >= 0 && (hash < 0 || question < hash) ? question + 1 : -1;
    int fragmentStart = hash >= 0 ? hash + 1 : -1;
    int head = queryStart >= 0 ? queryStart : fragmentStart;
    out.append(url, 0, head);
    if (queryStart >= 0) {
      int queryEnd = fragmentStart >= 0 ? fragmentStart - 1 : url.length();
      out.append(redactPairs(url.substring(queryStart, queryEnd)));
      if (fragmentStart >= 0) {
        out.append('#');
      }
    }
    if (fragmentStart >= 0) {
      out.append(redactPairs(url.substring(fragmentStart)));
    }
    return out.toString();
  }

  private static String redactPairs(String pairs) {
    StringBuilder out = new StringBuilder(pairs.length());
    int start = 0;
    while (start <= pairs.length()) {
      int end = pairs.indexOf('&', start);
      if (end < 0) {
        end = pairs.length();
      }
      String pair = pairs.substring(start, end);
      int equals = pair.indexOf('=');
      if (equals > 0 && secretName(pair.substring(0, equals))) {
        out.append(pair, 0, equals + 1).append(REDACTED);
      } else {
        out.append(pair);
      }
      if (end < pairs.length()) {
        out.append('&');
      }
      start = end + 1;
    }
    return out.toString();
  }

  private static String percentDecodedAscii(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '%' && i + 2 < text.length() && Character.digit(text.charAt(i + 1), 16) >= 0 && Character.digit(text.charAt(i + 2), 16) >= 0) {
        int value = Character.digit(text.charAt(i + 1), 16) * 16 + Character.digit(text.charAt(i + 2), 16);
        if (value < 0x80) {
          out.append((char) value);
          i += 2;
          continue;
        }
      }
      out.append(c);
    }
    return out.toString();
  }

  private static int indexOfAny(String text, int from, String characters) {
    for (int i = from; i < text.length(); i++) {
      if (characters.indexOf(text.charAt(i)) >= 0) {
        return i;
      }
    }
    return text.length();
  }

  private static boolean endsUrl(char c) {
    return Character.isWhitespace(c) || c == '\'' || c == '"' || c == '<' || c == '>' || c == '`';
  }
}
