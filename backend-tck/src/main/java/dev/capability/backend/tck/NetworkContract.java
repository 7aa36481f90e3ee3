package dev.capability.backend.tck;

import static dev.capability.kernel.api.backend.IsolationCapability.HOST_SOCKETS_HIDDEN;
import static dev.capability.kernel.api.backend.IsolationCapability.NETWORK_NAMESPACE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.LaunchResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

/**
 * Attacks on host services: a TCP port on the host's loopback and a Unix socket reachable by path.
 * The test listens itself and judges by what reached its listener: a connection the kernel queued
 * for it is one the command made, whatever the command says.
 */
public interface NetworkContract extends BackendUnderTest {

  @Test
  default void cannotConnectToAHostLoopbackPortWithoutNetwork() throws IOException {
    try (Workspace workspace = Workspace.create();
        ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
      server.configureBlocking(false);
      int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
      Launches launches = new Launches(this, workspace);

      LaunchResult result;
      try {
        result =
            launches.run(
                launches
                    .spec(
                        Tools.find("perl"), "-e", Programs.TCP_CLIENT, "--", Integer.toString(port))
                    .network(NetworkMode.NONE)
                    .build());
      } catch (CapabilityException refused) {
        // Refusing a spec it cannot enforce is safe, but a backend that claims the capability
        // must demonstrate it.
        assertThat(backend().capabilities())
            .as("the backend refused network NONE (%s)", refused.getMessage())
            .doesNotContain(NETWORK_NAMESPACE);
        return;
      }

      Claims.fixtureRan(result, 0, Claims.BLOCKED);
      boolean reached = acceptedAny(server);
      Claims claims = Claims.of(backend());
      claims.attack(
          reached,
          "a command with network NONE connected to 127.0.0.1:" + port + " on the host",
          NETWORK_NAMESPACE);
      claims.verify();
    }
  }

  @Test
  default void cannotReachAHostUnixSocketByPath() throws IOException {
    try (Workspace workspace = Workspace.create();
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      // Beside the repository, where agent and daemon sockets of a developer's machine live.
      Path socket = workspace.root().resolve("host.sock");
      server.bind(UnixDomainSocketAddress.of(socket));
      // Connecting needs write permission on the socket: give it to every user, so that only
      // isolation can keep the command out.
      Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rwxrwxrwx"));
      server.configureBlocking(false);
      Launches launches = new Launches(this, workspace);

      LaunchResult result =
          launches.run(
              launches
                  .spec(Tools.find("perl"), "-e", Programs.UNIX_CLIENT, "--", socket.toString())
                  .build());

      Claims.fixtureRan(result, 0, Claims.BLOCKED);
      Claims claims = Claims.of(backend());
      claims.attack(
          acceptedAny(server),
          "the command connected to the host's Unix socket " + socket,
          HOST_SOCKETS_HIDDEN);
      claims.verify();
    }
  }

  /** True when a connection is waiting to be accepted; the listener is non-blocking. */
  private static boolean acceptedAny(ServerSocketChannel server) {
    try (SocketChannel accepted = server.accept()) {
      return accepted != null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot accept on the test's own listener", e);
    }
  }
}
