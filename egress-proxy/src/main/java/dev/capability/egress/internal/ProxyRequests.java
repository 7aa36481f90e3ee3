package dev.capability.egress.internal;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Reads the destination of a proxy request and rewrites a plain one for its origin server. */
final class ProxyRequests {
  private static final List<String> HOP_BY_HOP = List.of(
      "connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade");
  /** The body's framing, which the forwarded request needs whatever {@code Connection} lists. */
  private static final List<String> FRAMING = List.of("content-length", "transfer-encoding", "host");

  /** A requested {@code host:port}; an IPv6 host without brackets. */
  record Target(String host, int port) {}

  private ProxyRequests() {}

  /** The target of a CONNECT request ({@code host:port} or {@code [ipv6]:port}), or null. */
  static @Nullable Target connectTarget(String authority) {
    int colon = authority.lastIndexOf(':');
    if (colon <= 0 || !authority.substring(colon + 1).matches("[0-9]{1,5}")) {
      return null;
    }
    String host = authority.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.indexOf(':') >= 0) {
      return null;
    }
    return new Target(host, Integer.parseInt(authority.substring(colon + 1)));
  }

  /**
   * The target of a plain request with an absolute {@code http} URI, after rewriting {@code
   * request} for the origin server: origin-form URI, {@code Host} from the URI, hop-by-hop and
   * {@code Proxy-*} headers removed, {@code Connection: close}. Null when the URI is not an
   * absolute {@code http} URI with a host.
   */
  static @Nullable Target rewrite(HttpRequest request) {
    URI uri;
    try {
      uri = new URI(request.uri());
    } catch (URISyntaxException e) {
      return null;
    }
    String host = uri.getHost();
    if (!"http".equalsIgnoreCase(uri.getScheme()) || host == null || uri.getRawUserInfo() != null) {
      return null;
    }
    int port = uri.getPort() == -1 ? 80 : uri.getPort();
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    request.setUri(uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery());
    HttpHeaders headers = request.headers();
    removeHopByHop(headers);
    headers.set(HttpHeaderNames.HOST, uri.getPort() == -1 ? host : host + ":" + port);
    headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    return new Target(bare, port);
  }

  /**
   * Whether {@code request} has no body: neither {@code Transfer-Encoding} nor a {@code
   * Content-Length} other than 0 (the decoder refused a malformed length already).
   */
  static boolean bodiless(HttpRequest request) {
    HttpHeaders headers = request.headers();
    if (headers.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
      return false;
    }
    List<String> lengths = headers.getAll(HttpHeaderNames.CONTENT_LENGTH);
    return lengths.isEmpty() || lengths.stream().allMatch(length -> length.strip().equals("0"));
  }

  /**
   * The head of a rewritten request as it goes on the wire, as Netty's request encoder writes it:
   * request line, headers, blank line. Its strings came through the decoder (no line breaks) or
   * from {@link #rewrite}; the header names and values are ASCII or, where a client sent other
   * bytes, those bytes as ISO-8859-1 characters, so each character is one byte again.
   */
  static byte[] head(HttpRequest request) {
    StringBuilder head = new StringBuilder(256)
        .append(request.method().name()).append(' ')
        .append(request.uri()).append(' ')
        .append(request.protocolVersion().text()).append("\r\n");
    for (Map.Entry<String, String> header : request.headers()) {
      head.append(header.getKey()).append(": ").append(header.getValue()).append("\r\n");
    }
    return head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  private static void removeHopByHop(HttpHeaders headers) {
    List<String> names = new ArrayList<>(HOP_BY_HOP);
    for (String listed : headers.getAll(HttpHeaderNames.CONNECTION)) {
      for (String token : listed.split(",")) {
        names.add(token.strip().toLowerCase(Locale.ROOT));
      }
    }
    for (String name : headers.names()) {
      if (name.toLowerCase(Locale.ROOT).startsWith("proxy-")) {
        names.add(name);
      }
    }
    names.removeAll(FRAMING);
    names.forEach(headers::remove);
  }
}
