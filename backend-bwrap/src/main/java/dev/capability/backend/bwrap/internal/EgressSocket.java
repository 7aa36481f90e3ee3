package dev.capability.backend.bwrap.internal;

import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import dev.capability.linux.NativeCallException;
import dev.capability.linux.PinnedPath;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The egress proxy's socket of one run, held by an {@code O_PATH} descriptor that the launcher
 * chain hands down to the relay, which connects through {@code /proc/self/fd/N}. The sandbox's
 * user (nobody, when this JVM is root) need not be able to search the directory the proxy keeps
 * its socket in, which only this JVM's user may enter, and no path is looked up again after the
 * socket was opened here.
 */
final class EgressSocket implements AutoCloseable {
  private final Optional<PinnedPath> socket;

  private EgressSocket(Optional<PinnedPath> socket) {
    this.socket = socket;
  }

  /**
   * Opens the socket, when there is one.
   *
   * @throws NetworkFilterUnavailableException when it is not a Unix socket, or is unreachable
   */
  static EgressSocket open(Optional<Path> path) {
    if (path.isEmpty()) {
      return new EgressSocket(Optional.empty());
    }
    try {
      return new EgressSocket(Optional.of(PinnedPath.openSocket(path.get())));
    } catch (NativeCallException | IllegalArgumentException e) {
      throw new NetworkFilterUnavailableException(
          "cannot open the egress proxy's socket " + path.get() + ": " + e.getMessage(), e);
    }
  }

  /** This JVM's descriptor of the socket, if there is one. */
  OptionalInt descriptor() {
    return socket.map(s -> OptionalInt.of(s.descriptor())).orElse(OptionalInt.empty());
  }

  @Override
  public void close() {
    socket.ifPresent(PinnedPath::close);
  }
}
