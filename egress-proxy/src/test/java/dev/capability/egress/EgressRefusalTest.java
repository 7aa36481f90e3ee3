package dev.capability.egress;

import static dev.capability.egress.TestResolver.address;
import static dev.capability.egress.TestResolver.ipv6;
import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.network.EgressConnection.Outcome;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.network.EgressLimits;
import dev.capability.kernel.api.network.EgressRefusal;
import dev.capability.kernel.api.network.EgressRules;
import dev.capability.kernel.api.network.EgressSession;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every way out the rules do not grant is refused at the proxy, with its code, and the destination
 * server never sees a connection.
 */
@Timeout(60)
class EgressRefusalTest {
  private static final String NAME = "granted.test";
  private static final String REBOUND = "rebound.test";

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

  private void open(Map<String, List<InetAddress>> names, List<EgressDestination> allowed, Set<String> privateNames) {
    open(names, allowed, privateNames, EgressLimits.DEFAULT);
  }

  private void open(
      Map<String, List<InetAddress>> names, List<EgressDestination> allowed, Set<String> privateNames, EgressLimits limits) {
    session = new NettyEgressGateway(new TestResolver(names), temp).open(new EgressRules(allowed, privateNames, limits));
  }

  private void openGrantingLoopbackName() {
    open(Map.of(NAME, List.of(address("127.0.0.1")), "other.test", List.of(address("127.0.0.1"))),
        List.of(new EgressDestination(NAME, echo.port())), Set.of(NAME));
  }

  private String connect(String authority) throws IOException {
    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.send("CONNECT " + authority + " HTTP/1.1\r\n\r\n");
      return client.readToEnd();
    }
  }

  private void assertRefusedWith(String response, String reason) {
    assertThat(response).startsWith("HTTP/1.1 403").endsWith(reason + "\n");
    assertThat(session.connections()).singleElement().satisfies(c -> {
      assertThat(c.outcome()).isEqualTo(Outcome.REFUSED);
      assertThat(c.reason()).isEqualTo(reason);
    });
    assertThat(echo.accepted()).as("connections the destination accepted").isZero();
  }

  @Test
  void anotherPortOfAGrantedNameIsNotGranted() throws IOException {
    openGrantingLoopbackName();

    assertRefusedWith(connect(NAME + ":" + (echo.port() == 1 ? 2 : echo.port() - 1)), EgressRefusal.NOT_GRANTED);
  }

  @Test
  void anotherNameResolvingToTheSameServerIsNotGranted() throws IOException {
    openGrantingLoopbackName();

    assertRefusedWith(connect("other.test:" + echo.port()), EgressRefusal.NOT_GRANTED);
    assertThat(session.connections().get(0).host()).isEqualTo("other.test");
  }

  @Test
  void anIpLiteralNotGrantedAsSuchIsRefused() throws IOException {
    openGrantingLoopbackName();

    assertRefusedWith(connect("127.0.0.1:" + echo.port()), EgressRefusal.IP_LITERAL);
  }

  @Test
  void aPublicIpLiteralNotGrantedIsRefusedBeforeAnyConnection() throws IOException {
    openGrantingLoopbackName();

    assertRefusedWith(connect("[2001:db8::1]:443"), EgressRefusal.IP_LITERAL);
    assertThat(session.connections().get(0).host()).isEqualTo("2001:db8::1");
  }

  @Test
  void aLoopbackLiteralIsRefusedEvenWhenGrantedAsSuch() throws IOException {
    open(Map.of(), List.of(new EgressDestination("127.0.0.1", echo.port())), Set.of());

    assertRefusedWith(connect("127.0.0.1:" + echo.port()), EgressRefusal.FORBIDDEN_ADDRESS);
  }

  static Stream<Arguments> forbiddenAddresses() {
    byte[] mappedLoopback = new byte[16];
    mappedLoopback[10] = (byte) 0xff;
    mappedLoopback[11] = (byte) 0xff;
    mappedLoopback[12] = 127;
    mappedLoopback[15] = 1;
    return Stream.of(
        Arguments.of("10.0.0.1", address("10.0.0.1")),
        Arguments.of("169.254.169.254 (cloud metadata)", address("169.254.169.254")),
        Arguments.of("::1", address("::1")),
        Arguments.of("fd00::1", address("fd00::1")),
        Arguments.of("::ffff:127.0.0.1", ipv6(mappedLoopback)),
        Arguments.of("127.0.0.1", address("127.0.0.1")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forbiddenAddresses")
  void aGrantedNameResolvingToAForbiddenAddressIsRefused(String label, InetAddress forbidden) throws IOException {
    open(Map.of(REBOUND, List.of(forbidden)), List.of(new EgressDestination(REBOUND, echo.port())), Set.of());

    assertRefusedWith(connect(REBOUND + ":" + echo.port()), EgressRefusal.FORBIDDEN_ADDRESS);
    assertThat(session.connections().get(0).address()).isNotNull();
  }

  @Test
  void aClientThatLeavesWhileItsNameResolvesToAForbiddenAddressIsStillRecordedAsRefused() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    session = new NettyEgressGateway(host -> {
      asked.countDown();
      try {
        answer.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return List.of(address("169.254.169.254"));
    }, temp).open(new EgressRules(List.of(new EgressDestination(REBOUND, 80)), Set.of(), EgressLimits.DEFAULT));

    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.send("CONNECT " + REBOUND + ":80 HTTP/1.1\r\n\r\n");
      asked.await();
    }
    answer.countDown();
    session.close();

    assertThat(session.connections()).singleElement().satisfies(c -> {
      assertThat(c.outcome()).isEqualTo(Outcome.REFUSED);
      assertThat(c.reason()).isEqualTo(EgressRefusal.FORBIDDEN_ADDRESS);
      assertThat(c.address()).isEqualTo("169.254.169.254");
    });
  }

  @Test
  void aPrivateAddressNameMayNeverLeadToTheUnspecifiedAddress() throws IOException {
    open(Map.of(NAME, List.of(address("0.0.0.0"))), List.of(new EgressDestination(NAME, echo.port())), Set.of(NAME));

    assertRefusedWith(connect(NAME + ":" + echo.port()), EgressRefusal.FORBIDDEN_ADDRESS);
  }

  @Test
  void aNameResolvingToAForbiddenAndAPublicAddressLeadsOnlyToThePublicOne() throws IOException {
    EgressLimits quickConnect = new EgressLimits(8, 8, 16384, 1 << 20, Duration.ofSeconds(10), Duration.ofMillis(300), Duration.ofSeconds(10));
    open(Map.of(REBOUND, List.of(address("127.0.0.1"), address("192.0.2.1"))),
        List.of(new EgressDestination(REBOUND, echo.port())), Set.of(), quickConnect);

    String response;
    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      // 192.0.2.1 (documentation) is public to the rules and unreachable here: the proxy tries it
      // and never the loopback server.
      client.send("CONNECT " + REBOUND + ":" + echo.port() + " HTTP/1.1\r\n\r\n");
      response = client.readHead();
    }
    assertThat(response).doesNotStartWith("HTTP/1.1 200");
    assertThat(session.connections().get(0).address()).isEqualTo("192.0.2.1");
    assertThat(echo.accepted()).isZero();
  }

  @Test
  void socks5AnswersNotAllowedByTheRulesetForARefusal() throws IOException {
    openGrantingLoopbackName();

    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.socksGreeting();
      assertThat(client.socksConnect("other.test", echo.port())).isEqualTo((byte) 0x02);
    }
    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.socksGreeting();
      assertThat(client.socksConnect(new byte[] {127, 0, 0, 1}, echo.port())).isEqualTo((byte) 0x02);
    }
    assertThat(session.connections()).extracting(EgressConnection::reason)
        .containsExactly(EgressRefusal.NOT_GRANTED, EgressRefusal.IP_LITERAL);
    assertThat(session.connections()).extracting(EgressConnection::protocol).containsOnly("socks5");
    assertThat(echo.accepted()).isZero();
  }

  @Test
  void socks5AnswersHostUnreachableForANameThatDoesNotResolveAndRefusedForAClosedPort() throws IOException {
    int closedPort;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = probe.getLocalPort();
    }
    open(Map.of(NAME, List.of(address("127.0.0.1"))),
        List.of(new EgressDestination(NAME, closedPort), new EgressDestination("nowhere.test", 80)), Set.of(NAME));

    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.socksGreeting();
      assertThat(client.socksConnect("nowhere.test", 80)).isEqualTo((byte) 0x04);
    }
    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.socksGreeting();
      assertThat(client.socksConnect(NAME, closedPort)).isEqualTo((byte) 0x05);
    }
    assertThat(session.connections()).extracting(EgressConnection::outcome).containsOnly(Outcome.FAILED);
    assertThat(session.connections()).extracting(EgressConnection::reason)
        .containsExactly(EgressRefusal.UNRESOLVED, EgressRefusal.CONNECT_FAILED);
  }

  @Test
  void aPlainRequestForANameNotGrantedIsRefusedAndItsBodyDiscarded() throws IOException {
    openGrantingLoopbackName();

    String response;
    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.send("POST http://other.test:" + echo.port() + "/ HTTP/1.1\r\nContent-Length: 100000\r\n\r\n");
      client.send(new byte[100_000]);
      response = client.readToEnd();
    }

    assertRefusedWith(response, EgressRefusal.NOT_GRANTED);
  }

  @Test
  void socks5RefusesAnIpv6LiteralNotGrantedAndCommandsOtherThanConnect() throws IOException {
    openGrantingLoopbackName();
    byte[] loopback6 = new byte[16];
    loopback6[15] = 1;

    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.socksGreeting();
      assertThat(client.socksConnect(loopback6, echo.port())).isEqualTo((byte) 0x02);
    }
    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.socksGreeting();
      client.send((byte) 5, (byte) 2, (byte) 0, (byte) 1, (byte) 127, (byte) 0, (byte) 0, (byte) 1, (byte) 0, (byte) 80); // BIND
      assertThat(client.read(2)[1]).isEqualTo((byte) 0x07);
    }

    assertThat(session.connections()).extracting(EgressConnection::reason)
        .containsExactly(EgressRefusal.IP_LITERAL, EgressRefusal.MALFORMED);
    assertThat(session.connections().get(0).host()).isEqualTo("::1");
    assertThat(echo.accepted()).isZero();
  }

  @Test
  void aRequestNotMeantForAProxyIsMalformed() throws IOException {
    openGrantingLoopbackName();

    String response;
    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.send("GET /index.html HTTP/1.1\r\nHost: " + NAME + "\r\n\r\n");
      response = client.readToEnd();
    }

    assertThat(response).startsWith("HTTP/1.1 400").endsWith(EgressRefusal.MALFORMED + "\n");
    assertThat(session.connections()).singleElement().satisfies(c -> assertThat(c.reason()).isEqualTo(EgressRefusal.MALFORMED));
  }

  @Test
  void socks5WithoutTheNoAuthenticationMethodIsRefused() throws IOException {
    openGrantingLoopbackName();

    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.send((byte) 5, (byte) 1, (byte) 2); // username/password only
      assertThat(client.read(2)).containsExactly(5, 0xff);
    }
    assertThat(session.connections()).singleElement().satisfies(c -> {
      assertThat(c.protocol()).isEqualTo("socks5");
      assertThat(c.reason()).isEqualTo(EgressRefusal.MALFORMED);
    });
  }
}
