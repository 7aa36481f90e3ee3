package dev.capability.discovery;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** A real HTTP server on loopback serving documents the tests generate. */
final class IndexServer implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService threads = Executors.newFixedThreadPool(8);
  private final Map<String, HttpHandler> handlers = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();

  IndexServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::dispatch);
    server.setExecutor(threads);
    server.start();
  }

  private void dispatch(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getRawPath();
    hits.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
    HttpHandler handler = handlers.get(path);
    try (exchange) {
      if (handler == null) {
        exchange.sendResponseHeaders(404, -1);
      } else {
        handler.handle(exchange);
      }
    }
  }

  URI url(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  int port() {
    return server.getAddress().getPort();
  }

  /** How many requests reached {@code path}. */
  int hits(String path) {
    AtomicInteger count = hits.get(path);
    return count == null ? 0 : count.get();
  }

  IndexServer serve(String path, String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    handlers.put(path, exchange -> {
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    });
    return this;
  }

  IndexServer handle(String path, HttpHandler handler) {
    handlers.put(path, handler);
    return this;
  }

  /** An index document with the given entries (JSON objects) and links. */
  static String index(java.util.List<String> entries, java.util.List<String> links) {
    StringBuilder out = new StringBuilder("{\"format\":\"capability-index/1\",\"entries\":[");
    out.append(String.join(",", entries)).append("],\"links\":[");
    for (int i = 0; i < links.size(); i++) {
      out.append(i == 0 ? "" : ",").append('"').append(links.get(i)).append('"');
    }
    return out.append("]}").toString();
  }

  static String entry(String name, String description) {
    return "{\"coordinates\":\"com.example:" + name + ":1.0.0\",\"name\":\"" + name + "\",\"description\":\"" + description + "\"}";
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
