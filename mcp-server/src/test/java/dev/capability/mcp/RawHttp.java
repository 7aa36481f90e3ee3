package dev.capability.mcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One HTTP/1.1 request written byte for byte on a socket, so that a test can send what a real
 * client library would not (a foreign Host header, a forged Origin, an oversized body).
 */
final class RawHttp {
  record Response(int status, String body) {}

  private RawHttp() {}

  static Response post(InetAddress address, int port, Map<String, String> headers, byte[] body) throws IOException {
    try (Socket socket = new Socket(address, port)) {
      StringBuilder head = new StringBuilder("POST " + CapabilityMcpServer.ENDPOINT + " HTTP/1.1\r\n");
      headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
      head.append("Content-Type: application/json\r\n")
          .append("Accept: application/json, text/event-stream\r\n")
          .append("Content-Length: ").append(body.length).append("\r\n")
          .append("Connection: close\r\n\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
      try {
        out.write(body);
        out.flush();
      } catch (IOException e) {
        // The server may answer and close before it has read an oversized body; its answer is still there to read.
      }
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      String text = all.toString(StandardCharsets.UTF_8);
      int status = Integer.parseInt(text.substring(9, 12));
      int bodyStart = text.indexOf("\r\n\r\n");
      return new Response(status, bodyStart < 0 ? "" : text.substring(bodyStart + 4));
    }
  }
}
