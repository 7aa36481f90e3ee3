package dev.capability.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.mcp.HttpSettings;
import dev.capability.mcp.McpCodes;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;

/** The gate's concurrency limit, on a real Jetty listener whose servlet holds the first request until told to answer. */
class HttpGateTest {
  @Test
  void aRequestBeyondTheConcurrencyLimitIsRefusedWhileTheFirstIsInFlight() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Server jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.addServlet(new ServletHolder(new HttpServlet() {
      @Override
      protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        entered.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        response.getOutputStream().write("done".getBytes(StandardCharsets.UTF_8));
      }
    }), "/*");
    context.addFilter(new FilterHolder(new HttpGate(
        new HttpSettings("127.0.0.1", 0, List.of(), List.of(), Optional.empty(), 1024, 1, Duration.ofMinutes(1)))),
        "/*", EnumSet.of(DispatcherType.REQUEST));
    jetty.setHandler(context);
    jetty.start();
    try {
      int port = connector.getLocalPort();
      CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> post(port));
      entered.await();
      String second = post(port);
      assertThat(second).startsWith("HTTP/1.1 429").contains(McpCodes.TOO_MANY_REQUESTS);
      release.countDown();
      assertThat(first.get()).startsWith("HTTP/1.1 200").endsWith("done");
      // The permit came back with the first answer (the servlet no longer waits: release is open).
      assertThat(post(port)).startsWith("HTTP/1.1 200");
    } finally {
      release.countDown();
      jetty.stop();
    }
  }

  @Test
  void theHostNameIsComparedWithoutItsPort() {
    assertThat(HttpGate.hostName("LocalHost:8765")).isEqualTo("localhost");
    assertThat(HttpGate.hostName("[::1]:8765")).isEqualTo("[::1]");
    assertThat(HttpGate.hostName("127.0.0.1")).isEqualTo("127.0.0.1");
  }

  private static String post(int port) {
    try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), port)) {
      OutputStream out = socket.getOutputStream();
      out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      return all.toString(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
