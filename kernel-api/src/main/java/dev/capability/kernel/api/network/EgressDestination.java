package dev.capability.kernel.api.network;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One {@code host:port} a run may connect to, matched on the name the client asks for, never on
 * an address the name resolves to. The host is a lower-case DNS name, an IPv4 literal or an IPv6
 * literal (written in brackets in {@link #toString()} and {@link #parse}).
 *
 * @param host the lower-case DNS name, or the IP literal without brackets
 * @param port 1 to 65535
 */
public record EgressDestination(String host, int port) {
  private static final Pattern DNS_NAME =
      Pattern.compile("(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*");
  private static final Pattern IPV4 =
      Pattern.compile("((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])");
  private static final Pattern IPV6 = Pattern.compile("[0-9a-f:.]{2,45}");

  public EgressDestination {
    Objects.requireNonNull(host, "host");
    if (!(DNS_NAME.matcher(host).matches() || IPV4.matcher(host).matches() || isIpv6(host))) {
      throw new IllegalArgumentException(
          "host must be a lower-case DNS name, an IPv4 literal or an IPv6 literal, was '" + host + "'");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port must be 1 to 65535, was " + port);
    }
  }

  /**
   * Parses {@code host:port} or {@code [ipv6]:port}. The host is compared case-insensitively, so it
   * is lower-cased first; a trailing dot, a wildcard, a missing port or user information is refused.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static EgressDestination parse(String text) {
    Objects.requireNonNull(text, "text");
    String host;
    String port;
    if (text.startsWith("[")) {
      int close = text.indexOf("]:");
      if (close < 0) {
        throw new IllegalArgumentException("'" + text + "' is not [ipv6]:port");
      }
      host = text.substring(1, close).toLowerCase(Locale.ROOT);
      if (!isIpv6(host)) {
        throw new IllegalArgumentException("'" + text + "' does not hold an IPv6 literal in brackets");
      }
      port = text.substring(close + 2);
    } else {
      int colon = text.lastIndexOf(':');
      if (colon <= 0 || text.indexOf(':') != colon) {
        throw new IllegalArgumentException("'" + text + "' is not host:port");
      }
      host = text.substring(0, colon).toLowerCase(Locale.ROOT);
      port = text.substring(colon + 1);
    }
    if (!port.matches("[1-9][0-9]{0,4}")) {
      throw new IllegalArgumentException("'" + text + "' has no port from 1 to 65535");
    }
    return new EgressDestination(host, Integer.parseInt(port));
  }

  /** Whether the host is an IP literal rather than a name. */
  public boolean isIpLiteral() {
    return IPV4.matcher(host).matches() || isIpv6(host);
  }

  /**
   * Whether {@code host} is an IPv6 literal in RFC 4291 text form: eight groups of one to four hex
   * digits, or fewer around one {@code ::}, the last two groups optionally written as IPv4.
   */
  private static boolean isIpv6(String host) {
    if (host.indexOf(':') < 0 || !IPV6.matcher(host).matches()) {
      return false;
    }
    int elided = host.indexOf("::");
    if (elided >= 0 && host.indexOf("::", elided + 1) >= 0) {
      return false;
    }
    if (host.startsWith(":") && !host.startsWith("::") || host.endsWith(":") && !host.endsWith("::")) {
      return false;
    }
    String[] parts = host.split(":", -1);
    int groups = 0;
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i];
      if (part.isEmpty()) {
        if (elided < 0) {
          return false;
        }
      } else if (i == parts.length - 1 && part.indexOf('.') >= 0) {
        if (!IPV4.matcher(part).matches()) {
          return false;
        }
        groups += 2;
      } else if (part.length() > 4 || part.indexOf('.') >= 0) {
        return false;
      } else {
        groups++;
      }
    }
    return elided < 0 ? groups == 8 : groups <= 7;
  }

  /** {@code host:port}, with an IPv6 literal in brackets: the form {@link #parse} reads. */
  @Override
  public String toString() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}
