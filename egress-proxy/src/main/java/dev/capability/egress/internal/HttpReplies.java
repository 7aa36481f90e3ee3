package dev.capability.egress.internal;

import dev.capability.kernel.api.network.EgressRefusal;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;

/** The few responses the proxy itself writes to an HTTP client, as bytes. */
final class HttpReplies {
  static final ByteBuf CONNECTED = Unpooled.unreleasableBuffer(Unpooled.copiedBuffer(
      "HTTP/1.1 200 Connection established\r\n\r\n", StandardCharsets.US_ASCII)).asReadOnly();

  private HttpReplies() {}

  /** The response to a refusal or failure: its status, and the reason code as the body. */
  static ByteBuf refusal(String reason) {
    String status = switch (reason) {
      case EgressRefusal.HEADER_TOO_LARGE -> "431 Request Header Fields Too Large";
      case EgressRefusal.MALFORMED -> "400 Bad Request";
      case EgressRefusal.HANDSHAKE_TIMEOUT -> "408 Request Timeout";
      case EgressRefusal.UNRESOLVED, EgressRefusal.CONNECT_FAILED -> "502 Bad Gateway";
      default -> "403 Forbidden";
    };
    String body = reason + "\n";
    String response = "HTTP/1.1 " + status + "\r\n"
        + "Content-Type: text/plain; charset=us-ascii\r\n"
        + "Content-Length: " + body.length() + "\r\n"
        + "Connection: close\r\n"
        + "\r\n"
        + body;
    return Unpooled.copiedBuffer(response, StandardCharsets.US_ASCII);
  }

  static ByteBuf connected() {
    return CONNECTED.duplicate();
  }
}
