package dev.capability.cli;

import static dev.capability.testing.Git.git;

import com.sun.net.httpserver.HttpServer;
import dev.capability.testing.Git;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A "dumb HTTP" Git server on loopback: it serves the files under a directory (a bare repository
 * after {@code git update-server-info} is all {@code git ls-remote} and {@code git clone} need over
 * HTTP) and counts every request it gets, so a test can show that a refused client reached nothing.
 */
public final class DumbHttpGitServer implements AutoCloseable {
  private final HttpServer http;
  private final AtomicInteger requests = new AtomicInteger();

  private DumbHttpGitServer(Path root) throws IOException {
    http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    http.createContext("/", exchange -> {
      requests.incrementAndGet();
      Path file = root.resolve(exchange.getRequestURI().getPath().substring(1)).normalize();
      if (!file.startsWith(root) || !Files.isRegularFile(file)) {
        exchange.sendResponseHeaders(404, -1);
        exchange.close();
        return;
      }
      byte[] body = Files.readAllBytes(file);
      exchange.getResponseHeaders().set("Content-Type", "text/plain");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    http.start();
  }

  /** Serves the files under {@code root}, a real path. */
  public static DumbHttpGitServer serving(Path root) throws IOException {
    return new DumbHttpGitServer(root.toRealPath());
  }

  /**
   * Makes {@code directory/repo.git}, a bare repository with one commit on {@code main}, ready to be
   * served, and returns the commit's id.
   */
  public static String bareRepository(Path directory) throws IOException {
    Path source = Git.initWithCommit(directory.resolve("source"));
    Path bare = Files.createDirectories(directory).resolve("repo.git");
    git(directory, "clone", "-q", "--bare", source.toString(), bare.toString());
    git(bare, "update-server-info");
    return git(source, "rev-parse", "HEAD").strip();
  }

  public int port() {
    return http.getAddress().getPort();
  }

  /** How many requests reached the server. */
  public int requests() {
    return requests.get();
  }

  @Override
  public void close() {
    http.stop(0);
  }
}
