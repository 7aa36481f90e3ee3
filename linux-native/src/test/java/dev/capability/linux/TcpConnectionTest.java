package dev.capability.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class TcpConnectionTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @Test
  void connectsToALoopbackServerAndWritesWhatItIsGiven() throws Exception {
    assertReachesAServerOn(InetAddress.getByName("127.0.0.1"));
  }

  @Test
  void connectsOverIpv6WhereTheHostHasIt() throws Exception {
    InetAddress loopback6 = InetAddress.getByName("::1");
    boolean ipv6 = true;
    try (ServerSocket probe = new ServerSocket()) {
      probe.bind(new InetSocketAddress(loopback6, 0));
    } catch (IOException noIpv6) {
      ipv6 = false;
    }
    assumeTrue(ipv6, "this host has no IPv6 loopback");
    assertThat(loopback6).isInstanceOf(Inet6Address.class);
    assertReachesAServerOn(loopback6);
  }

  @Test
  void aPortWhereNothingListensIsRefusedWithItsOwnCode() throws IOException {
    int closedPort;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = probe.getLocalPort();
    }

    assertThatThrownBy(() -> TcpConnection.connect(InetAddress.getLoopbackAddress(), closedPort, WAIT))
        .isInstanceOf(NativeCallException.class)
        .satisfies(e -> assertThat(((NativeCallException) e).code()).isEqualTo(NativeCallException.CONNECT_REFUSED))
        .hasMessageContaining("port " + closedPort);
  }

  @Test
  void aPortOutOfRangeIsMisuse() {
    assertThatThrownBy(() -> TcpConnection.connect(InetAddress.getLoopbackAddress(), 0, WAIT))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static void assertReachesAServerOn(InetAddress address) throws Exception {
    byte[] sent = "hello over a blocking connect\n".getBytes(StandardCharsets.US_ASCII);
    try (ServerSocket server = new ServerSocket()) {
      server.bind(new InetSocketAddress(address, 0));
      CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> {
        try (Socket accepted = server.accept()) {
          return accepted.getInputStream().readAllBytes();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });

      try (TcpConnection connection = TcpConnection.connect(address, server.getLocalPort(), WAIT)) {
        assertThat(connection.descriptor()).isGreaterThan(2);
        connection.writeFully(sent);
      }

      assertThat(received.get()).isEqualTo(sent);
    }
  }
}
