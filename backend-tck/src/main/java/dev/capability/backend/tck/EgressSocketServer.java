package dev.capability.backend.tck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Stands in for a run's egress proxy: a Unix socket in a directory only this user may enter (as
 * the proxy keeps it), connectable by any user. Each connection is read to its end of input (the
 * client's half-close), then answered with {@code REPLY BYTES} (the reply and how many bytes came)
 * and closed. It serves one connection at a time on its own thread.
 */
final class EgressSocketServer implements AutoCloseable {
  private static final int MAX_REQUEST_BYTES = 1 << 20;

  private final Path directory;
  private final Path socket;
  private final ServerSocketChannel server;
  private final String reply;
  private final List<String> received = new ArrayList<>();
  private final Thread thread;

  private EgressSocketServer(Path directory, ServerSocketChannel server, String reply) {
    this.directory = directory;
    this.socket = directory.resolve("proxy.sock");
    this.server = server;
    this.reply = reply;
    this.thread = new Thread(this::serve, "tck-egress-socket");
    this.thread.setDaemon(true);
  }

  /** Listens on a fresh socket and answers every connection with {@code reply}. */
  static EgressSocketServer start(String reply) {
    Objects.requireNonNull(reply, "reply");
    try {
      Path directory =
          Files.createTempDirectory(
              "ck-tck-egress-",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      EgressSocketServer started = new EgressSocketServer(directory, server, reply);
      server.bind(UnixDomainSocketAddress.of(started.socket));
      // As the gateway does: any user may connect, so a sandbox under another uid can.
      Files.setPosixFilePermissions(started.socket, PosixFilePermissions.fromString("rw-rw-rw-"));
      started.thread.start();
      return started;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the suite's egress socket server", e);
    }
  }

  /** The socket's path on this machine. */
  Path socket() {
    return socket;
  }

  /** What each connection sent before its end of input, in order. */
  synchronized List<String> received() {
    return List.copyOf(received);
  }

  private void serve() {
    while (server.isOpen()) {
      try (SocketChannel connection = server.accept()) {
        ByteBuffer request = ByteBuffer.allocate(MAX_REQUEST_BYTES);
        while (request.hasRemaining() && connection.read(request) >= 0) {
          // Until the client's half-close.
        }
        String text = new String(request.array(), 0, request.position(), StandardCharsets.UTF_8);
        synchronized (this) {
          received.add(text);
        }
        connection.write(
            ByteBuffer.wrap(
                (reply + " " + request.position() + "\n").getBytes(StandardCharsets.UTF_8)));
      } catch (IOException e) {
        // Closed by close(), or a client that went away; the test judges by what was received.
      }
    }
  }

  @Override
  public void close() {
    try {
      server.close();
      thread.join(10_000);
      Files.deleteIfExists(socket);
      Files.deleteIfExists(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove the suite's egress socket " + socket, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
