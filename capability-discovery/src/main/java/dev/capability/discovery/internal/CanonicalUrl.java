package dev.capability.discovery.internal;

import dev.capability.capability.runtime.support.Printable;
import dev.capability.capability.runtime.support.UrlCredentials;
import dev.capability.discovery.DiscoveryCodes;
import dev.capability.discovery.IndexRefusedException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * The one spelling of a URL used to de-duplicate indexes: lower-case scheme and host, no default
 * port, dot segments removed (RFC 3986 section 5.2.4), percent-encodings upper-cased and
 * unreserved characters decoded, an empty path written {@code /}, no fragment. A URL with user
 * information, without a host, or with a scheme other than {@code http}/{@code https} is refused:
 * credentials have no place in an index link, and other schemes are never fetched. Messages quote
 * a URL only as {@link UrlCredentials#redacted(String)} writes it.
 */
public final class CanonicalUrl {
  private static final int MAX_LENGTH = 2048;

  private CanonicalUrl() {}

  /** Resolves {@code reference} against {@code base} and canonicalizes the result. */
  public static URI resolve(URI base, String reference) {
    if (reference.length() > MAX_LENGTH) {
      throw invalid(reference, "is longer than " + MAX_LENGTH + " characters");
    }
    URI parsed;
    try {
      parsed = new URI(reference);
    } catch (URISyntaxException e) {
      throw invalid(reference, "is not a URI: " + e.getReason());
    }
    return of(base.resolve(parsed));
  }

  /** Parses and canonicalizes {@code text}. */
  public static URI parse(String text) {
    if (text.length() > MAX_LENGTH) {
      throw invalid(text, "is longer than " + MAX_LENGTH + " characters");
    }
    try {
      return of(new URI(text));
    } catch (URISyntaxException e) {
      throw invalid(text, "is not a URI: " + e.getReason());
    }
  }

  /** Canonicalizes an absolute {@code http} or {@code https} URL. */
  public static URI of(URI uri) {
    String text = uri.toString();
    if (!uri.isAbsolute() || uri.isOpaque()) {
      throw invalid(text, "is not an absolute hierarchical URL");
    }
    if (uri.getRawUserInfo() != null) {
      throw invalid(text, "carries user information; credentials are refused in index URLs");
    }
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IndexRefusedException(
          DiscoveryCodes.INDEX_SCHEME_REFUSED, "URL '" + Printable.escaped(UrlCredentials.redacted(text)) + "' has scheme '" + scheme + "'; only https (and http where allowed) is read");
    }
    String host = uri.getHost();
    if (host == null || host.isEmpty()) {
      throw invalid(text, "has no host (or a host Java cannot parse)");
    }
    host = host.toLowerCase(Locale.ROOT);
    if (host.endsWith(".") && !host.startsWith("[")) {
      host = host.substring(0, host.length() - 1);
    }
    if (host.isEmpty() || host.endsWith(".")) {
      throw invalid(text, "has an empty host label");
    }
    int port = uri.getPort();
    if ((scheme.equals("https") && port == 443) || (scheme.equals("http") && port == 80)) {
      port = -1;
    }
    if (port == 0) {
      throw invalid(text, "has port 0");
    }
    String path = removeDotSegments(normalizeEscapes(uri.getRawPath() == null ? "" : uri.getRawPath(), text));
    if (path.isEmpty()) {
      path = "/";
    }
    String query = uri.getRawQuery() == null ? null : normalizeEscapes(uri.getRawQuery(), text);
    StringBuilder out = new StringBuilder(scheme).append("://").append(host);
    if (port != -1) {
      out.append(':').append(port);
    }
    out.append(path);
    if (query != null) {
      out.append('?').append(query);
    }
    try {
      return new URI(out.toString());
    } catch (URISyntaxException e) {
      throw invalid(text, "does not survive canonicalization: " + e.getReason());
    }
  }

  /** RFC 3986 section 5.2.4, on an absolute path. */
  static String removeDotSegments(String path) {
    Deque<String> output = new ArrayDeque<>();
    String[] segments = path.split("/", -1);
    // segments[0] is the empty string before the leading '/'
    for (int i = 1; i < segments.length; i++) {
      String segment = segments[i];
      boolean last = i == segments.length - 1;
      if (segment.equals(".")) {
        if (last) {
          output.addLast("");
        }
      } else if (segment.equals("..")) {
        output.pollLast();
        if (last) {
          output.addLast("");
        }
      } else {
        output.addLast(segment);
      }
    }
    if (output.isEmpty()) {
      return path.isEmpty() ? "" : "/";
    }
    return "/" + String.join("/", output);
  }

  private static String normalizeEscapes(String raw, String whole) {
    StringBuilder out = new StringBuilder(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c != '%') {
        out.append(c);
        continue;
      }
      if (i + 2 >= raw.length() || hex(raw.charAt(i + 1)) < 0 || hex(raw.charAt(i + 2)) < 0) {
        throw invalid(whole, "has a malformed percent-encoding");
      }
      int value = hex(raw.charAt(i + 1)) * 16 + hex(raw.charAt(i + 2));
      if (isUnreserved(value)) {
        out.append((char) value);
      } else {
        out.append('%').append(Character.toUpperCase(raw.charAt(i + 1))).append(Character.toUpperCase(raw.charAt(i + 2)));
      }
      i += 2;
    }
    return out.toString();
  }

  private static boolean isUnreserved(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
  }

  private static int hex(char c) {
    return Character.digit(c, 16);
  }

  private static IndexRefusedException invalid(String url, String why) {
    return new IndexRefusedException(DiscoveryCodes.INDEX_URL_INVALID, "URL '" + Printable.escaped(UrlCredentials.redacted(url)) + "' " + why);
  }
}
