package dev.capability.egress;

import static dev.capability.egress.TestResolver.address;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.network.EgressConnection.Outcome;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.network.EgressLimits;
import dev.capability.kernel.api.network.EgressRefusal;
import dev.capability.kernel.api.network.EgressRules;
import dev.capability.kernel.api.network.EgressSession;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The proxy's bounds: header size, connection counts, bytes and time, each refused and recorded. */
@Timeout(60)
class EgressBoundsTest {
  private static final String NAME = "granted.test";

  @TempDir Path temp;
  private EchoServer echo;
  private EgressSession session;

  @BeforeEach
  void start() throws IOException {
    echo = new EchoServer();
  }

  @AfterEach
  void stop() throws IOException {
    if (session != null) {
      session.close();
    }
    echo.close();
  }

  private void open(EgressLimits limits) {
    session = new NettyEgressGateway(new TestResolver(Map.of(NAME, List.of(address("127.0.0.1")))), temp)
        .open(new EgressRules(List.of(new EgressDestination(NAME, echo.port())), Set.of(NAME), limits));
  }

  private static EgressLimits limits(int connections, int concurrent, int headerBytes, long bytes, Duration handshake) {
    return new EgressLimits(connections, concurrent, headerBytes, bytes, handshake, Duration.ofSeconds(10), Duration.ofSeconds(30));
  }

  private String tunnel(ProxyClient client) throws IOException {
    client.send("CONNECT " + NAME + ":" + echo.port() + " HTTP/1.1\r\n\r\n");
    return client.readHead();
  }

  @Test
  void anOversizedRequestHeadIsAnswered431AndRecorded() throws IOException {
    open(limits(8, 8, 1024, 1 << 20, Duration.ofSeconds(30)));

    String response;
    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.send("GET http://" + NAME + ":" + echo.port() + "/ HTTP/1.1\r\nX-Padding: " + "a".repeat(2048) + "\r\n\r\n");
      response = client.readToEnd();
    }

    assertThat(response).startsWith("HTTP/1.1 431").endsWith(EgressRefusal.HEADER_TOO_LARGE + "\n");
    assertThat(session.connections()).singleElement().satisfies(c -> {
      assertThat(c.outcome()).isEqualTo(Outcome.REFUSED);
      assertThat(c.reason()).isEqualTo(EgressRefusal.HEADER_TOO_LARGE);
    });
    assertThat(echo.accepted()).isZero();
  }

  @Test
  void theAttemptPastTheConnectionLimitIsRefusedAndLaterOnesCannotConnect() throws IOException {
    open(limits(2, 8, 16384, 1 << 20, Duration.ofSeconds(30)));

    for (int i = 0; i < 2; i++) {
      try (ProxyClient client = ProxyClient.connect(session.socket())) {
        assertThat(tunnel(client)).startsWith("HTTP/1.1 200");
      }
    }
    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.send("CONNECT " + NAME + ":" + echo.port() + " HTTP/1.1\r\n\r\n");
      assertThat(client.readToEnd()).startsWith("HTTP/1.1 403").endsWith(EgressRefusal.LIMIT + "\n");
    }
    assertThatThrownBy(() -> ProxyClient.connect(session.socket()).close()).isInstanceOf(IOException.class);

    assertThat(session.connections()).extracting(EgressConnection::outcome)
        .containsExactly(Outcome.ALLOWED, Outcome.ALLOWED, Outcome.REFUSED);
    assertThat(session.connections().get(2).reason()).isEqualTo(EgressRefusal.LIMIT);
    assertThat(echo.accepted()).isEqualTo(2);
  }

  @Test
  void aConnectionPastTheConcurrencyLimitIsRefusedWhileTheFirstIsOpen() throws IOException {
    open(limits(8, 1, 16384, 1 << 20, Duration.ofSeconds(30)));

    try (ProxyClient first = ProxyClient.connect(session.socket())) {
      assertThat(tunnel(first)).startsWith("HTTP/1.1 200");
      try (ProxyClient second = ProxyClient.connect(session.socket())) {
        second.send("CONNECT " + NAME + ":" + echo.port() + " HTTP/1.1\r\n\r\n");
        assertThat(second.readToEnd()).startsWith("HTTP/1.1 403").endsWith(EgressRefusal.LIMIT + "\n");
      }
      first.send("still");
      assertThat(first.readText(5)).isEqualTo("still");
    }

    assertThat(session.connections()).extracting(EgressConnection::reason).containsExactly(null, EgressRefusal.LIMIT);
  }

  @Test
  void aSlowClientIsClosedAfterTheHandshakeTimeout() throws IOException {
    open(limits(8, 8, 16384, 1 << 20, Duration.ofSeconds(1)));

    String response;
    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.send("GET http://" + NAME); // half a request line, and then nothing
      response = client.readToEnd();
    }

    assertThat(response).startsWith("HTTP/1.1 408").endsWith(EgressRefusal.HANDSHAKE_TIMEOUT + "\n");
    assertThat(session.connections()).singleElement().satisfies(c -> {
      assertThat(c.outcome()).isEqualTo(Outcome.REFUSED);
      assertThat(c.reason()).isEqualTo(EgressRefusal.HANDSHAKE_TIMEOUT);
    });
    assertThat(echo.accepted()).isZero();
  }

  @Test
  void aSlowSocksClientIsClosedAfterTheHandshakeTimeout() throws IOException {
    open(limits(8, 8, 16384, 1 << 20, Duration.ofSeconds(1)));

    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.send((byte) 5); // the version, and no methods
      assertThat(client.readToEnd()).isEmpty();
    }

    assertThat(session.connections()).singleElement().satisfies(c -> {
      assertThat(c.protocol()).isEqualTo("socks5");
      assertThat(c.reason()).isEqualTo(EgressRefusal.HANDSHAKE_TIMEOUT);
    });
  }

  @Test
  void aConnectionThatWouldPassTheByteBudgetIsCutAndRecordedAsALimit() throws IOException {
    open(limits(8, 8, 16384, 10, Duration.ofSeconds(30)));

    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      assertThat(tunnel(client)).startsWith("HTTP/1.1 200");
      client.send("sixsix"); // 6 bytes out fit; their 6-byte echo would make 12
      assertThat(client.readToEnd()).isEmpty();
    }

    assertThat(session.connections()).singleElement().satisfies(c -> {
      assertThat(c.outcome()).isEqualTo(Outcome.REFUSED);
      assertThat(c.reason()).isEqualTo(EgressRefusal.LIMIT);
      assertThat(c.bytesSent()).isEqualTo(6);
      assertThat(c.bytesReceived()).isZero();
    });
  }

  @Test
  void aClientThatConnectsAndLeavesWithoutSendingIsNoAttempt() throws IOException {
    open(limits(8, 8, 16384, 1 << 20, Duration.ofSeconds(30)));

    ProxyClient.connect(session.socket()).close();
    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      assertThat(tunnel(client)).startsWith("HTTP/1.1 200");
    }

    assertThat(session.connections()).extracting(EgressConnection::outcome).containsExactly(Outcome.ALLOWED);
  }
}
