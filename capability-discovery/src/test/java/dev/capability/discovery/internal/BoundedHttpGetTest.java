package dev.capability.discovery.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.discovery.DiscoveryCodes;
import dev.capability.discovery.IndexRefusedException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The HTTP client against a real socket that answers with the exact bytes a test chooses. */
class BoundedHttpGetTest {

  /** Serves {@code response} to one connection and returns the request it read. */
  private static byte[] exchange(String response, long limit) throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread thread = new Thread(() -> {
        try (Socket socket = server.accept()) {
          InputStream in = socket.getInputStream();
          ByteArrayOutputStream request = new ByteArrayOutputStream();
          while (!request.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            request.write(in.read());
          }
          socket.getOutputStream().write(response.getBytes(StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
          // the client hung up
        }
      });
      thread.start();
      try {
        URI url = URI.create("http://127.0.0.1:" + server.getLocalPort() + "/index.json");
        return new BoundedHttpGet(System.nanoTime() + TimeUnit.SECONDS.toNanos(20), SSLContext.getDefault())
            .get(url, InetAddress.getLoopbackAddress(), limit, DiscoveryCodes.INDEX_TOO_LARGE);
      } finally {
        thread.join(20_000);
      }
    }
  }

  private static String code(Throwable e) {
    return ((IndexRefusedException) e).code();
  }

  @Test
  void readsChunkedBodiesWithExtensionsAndTrailers() throws Exception {
    byte[] body = exchange("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\nX-Trailer: t\r\n\r\n", 100);

    assertThat(new String(body, StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}");
  }

  @Test
  void readsBodiesDelimitedByTheEndOfTheConnection() throws Exception {
    assertThat(exchange("HTTP/1.0 200 OK\r\n\r\n{}", 100)).isEqualTo("{}".getBytes(StandardCharsets.US_ASCII));
  }

  @Test
  void aChunkedBodyOverTheLimitIsAbandoned() {
    assertThatThrownBy(() -> exchange("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n20\r\n" + "x".repeat(32) + "\r\n0\r\n\r\n", 16))
        .isInstanceOf(FetchLimitException.class)
        .extracting(BoundedHttpGetTest::code).isEqualTo(DiscoveryCodes.INDEX_TOO_LARGE);
  }

  @Test
  void redirectsAreReportedNotFollowed() {
    assertThatThrownBy(() -> exchange("HTTP/1.1 301 Moved\r\nLocation: http://169.254.169.254/\r\nContent-Length: 0\r\n\r\n", 100))
        .extracting(BoundedHttpGetTest::code).isEqualTo(DiscoveryCodes.INDEX_REDIRECT);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
      "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n{}",
      "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 2\r\n\r\n{}",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n",
      "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
      "SMTP ready\r\n\r\n",
      "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n{}"})
  void malformedOrUnwantedResponsesAreRefused(String response) {
    assertThatThrownBy(() -> exchange(response, 100)).extracting(BoundedHttpGetTest::code).isEqualTo(DiscoveryCodes.INDEX_UNREACHABLE);
  }

  @Test
  void headerFloodsAreRefused() {
    String many = "HTTP/1.1 200 OK\r\n" + "X-A: b\r\n".repeat(101) + "\r\n{}";
    String longLine = "HTTP/1.1 200 OK\r\nX-A: " + "b".repeat(9000) + "\r\n\r\n{}";

    assertThatThrownBy(() -> exchange(many, 100)).extracting(BoundedHttpGetTest::code).isEqualTo(DiscoveryCodes.INDEX_UNREACHABLE);
    assertThatThrownBy(() -> exchange(longLine, 100)).extracting(BoundedHttpGetTest::code).isEqualTo(DiscoveryCodes.INDEX_UNREACHABLE);
  }
}
