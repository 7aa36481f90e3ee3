package dev.capability.acquire;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A Maven repository the test writes into a directory and a real HTTP server on loopback that
 * serves it; paths can be answered with a fixed status instead (redirects, server errors).
 */
public final class RepositoryFixture implements AutoCloseable {
  private final Path root;
  private final HttpServer server;
  private final Map<String, Integer> statuses = new ConcurrentHashMap<>();
  private final Map<String, String> locations = new ConcurrentHashMap<>();
  private final Map<String, Boolean> stalls = new ConcurrentHashMap<>();
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private final ExecutorService handlers = Executors.newCachedThreadPool();

  public RepositoryFixture(Path root) throws IOException {
    this.root = root;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try (exchange) {
        String path = exchange.getRequestURI().getPath();
        requests.add(path);
        if (stalls.containsKey(path)) {
          exchange.sendResponseHeaders(200, 1_000_000);
          exchange.getResponseBody().write(new byte[100]);
          exchange.getResponseBody().flush();
          awaitClose();
          return;
        }
        Integer status = statuses.get(path);
        if (status != null) {
          exchange.getResponseHeaders().add("Location", locations.getOrDefault(path, "http://example.invalid" + path));
          exchange.sendResponseHeaders(status, -1);
          return;
        }
        Path file = root.resolve(path.substring(1)).normalize();
        if (!file.startsWith(root) || !Files.isRegularFile(file)) {
          exchange.sendResponseHeaders(404, -1);
          return;
        }
        byte[] body = Files.readAllBytes(file);
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    });
    server.setExecutor(handlers);
    server.start();
  }

  /** The path of every request the server received, in order. */
  public List<String> requests() {
    return List.copyOf(requests);
  }

  /** Sends the headers and a little of {@code repositoryPath}, then nothing until the fixture closes. */
  void stall(String repositoryPath) {
    stalls.put("/repo/" + repositoryPath, true);
  }

  private void awaitClose() {
    try {
      closed.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  Path root() {
    return root;
  }

  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/repo/");
  }

  /** Answers {@code /repo/<repositoryPath>} with {@code status} and no body. */
  void answer(String repositoryPath, int status) {
    statuses.put("/repo/" + repositoryPath, status);
  }

  /** Answers {@code /repo/<repositoryPath>} with {@code status} and {@code location} as its Location header. */
  void answer(String repositoryPath, int status, String location) {
    locations.put("/repo/" + repositoryPath, location);
    answer(repositoryPath, status);
  }

  /** Writes {@code repositoryPath} under the repository root. */
  public void write(String repositoryPath, byte[] bytes) {
    try {
      Path file = root.resolve("repo").resolve(repositoryPath);
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public void write(String repositoryPath, String text) {
    write(repositoryPath, text.getBytes(StandardCharsets.UTF_8));
  }

  public void delete(String repositoryPath) {
    try {
      Files.deleteIfExists(root.resolve("repo").resolve(repositoryPath));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static String hex(String algorithm, byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    closed.countDown();
    server.stop(0);
    handlers.shutdownNow();
  }
}
