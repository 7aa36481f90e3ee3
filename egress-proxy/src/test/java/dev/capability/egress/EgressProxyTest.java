package dev.capability.egress;

import static dev.capability.egress.TestResolver.address;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.network.EgressConnection.Outcome;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.network.EgressLimits;
import dev.capability.kernel.api.network.EgressRefusal;
import dev.capability.kernel.api.network.EgressRules;
import dev.capability.kernel.api.network.EgressSession;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The proxy relays granted destinations over HTTP CONNECT, plain HTTP and SOCKS5. */
@Timeout(60)
class EgressProxyTest {
  private static final String NAME = "granted.test";

  @TempDir Path temp;
  private EchoServer echo;
  private EgressSession session;

  @BeforeEach
  void startDestination() throws IOException {
    echo = new EchoServer();
  }

  @AfterEach
  void stop() throws IOException {
    if (session != null) {
      session.close();
    }
    echo.close();
  }

  private EgressSession open(EgressResolver resolver, EgressRules rules) {
    session = new NettyEgressGateway(resolver, temp).open(rules);
    return session;
  }

  private EgressSession openPrivate(int port) {
    return open(new TestResolver(Map.of(NAME, List.of(address("127.0.0.1")))),
        new EgressRules(List.of(new EgressDestination(NAME, port)), Set.of(NAME), EgressLimits.DEFAULT));
  }

  @Test
  void connectRelaysBothWaysAndRecordsTheBytes() throws IOException {
    openPrivate(echo.port());

    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.send("CONNECT " + NAME + ":" + echo.port() + " HTTP/1.1\r\nHost: " + NAME + "\r\n\r\n");
      assertThat(client.readHead()).startsWith("HTTP/1.1 200");
      client.send("hello");
      assertThat(client.readText(5)).isEqualTo("hello");
    }

    EgressConnection recorded = session.connections().get(0);
    assertThat(recorded.protocol()).isEqualTo("connect");
    assertThat(recorded.destination()).isEqualTo(NAME + ":" + echo.port());
    assertThat(recorded.outcome()).isEqualTo(Outcome.ALLOWED);
    assertThat(recorded.reason()).isNull();
    assertThat(recorded.address()).isEqualTo("127.0.0.1");
    assertThat(recorded.bytesSent()).isEqualTo(5);
    assertThat(recorded.bytesReceived()).isEqualTo(5);
  }

  @Test
  void aNameIsMatchedCaseInsensitively() throws IOException {
    openPrivate(echo.port());

    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      client.send("CONNECT GRANTED.Test:" + echo.port() + " HTTP/1.1\r\n\r\n");
      assertThat(client.readHead()).startsWith("HTTP/1.1 200");
    }
    assertThat(session.connections()).singleElement().satisfies(c -> assertThat(c.host()).isEqualTo(NAME));
  }

  @Test
  void aPlainRequestWithAnAbsoluteUriIsForwardedInOriginFormWithoutProxyHeaders() throws IOException {
    List<String> seen = new CopyOnWriteArrayList<>();
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      seen.add(exchange.getRequestURI().toString());
      seen.add("host=" + exchange.getRequestHeaders().getFirst("Host"));
      seen.add("proxy-authorization=" + exchange.getRequestHeaders().getFirst("Proxy-Authorization"));
      seen.add("body=" + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      byte[] body = "served".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    try {
      int port = server.getAddress().getPort();
      openPrivate(port);
      try (ProxyClient client = ProxyClient.connect(session.socket())) {
        client.send("POST http://" + NAME + ":" + port + "/path?q=1 HTTP/1.1\r\nHost: " + NAME + "\r\n"
            + "Proxy-Authorization: Basic c2VjcmV0\r\nContent-Length: 4\r\n\r\nping");
        String response = client.readToEnd();
        assertThat(response).startsWith("HTTP/1.1 200").endsWith("served");
      }
    } finally {
      server.stop(0);
    }

    assertThat(seen).containsExactly(
        "/path?q=1", "host=" + NAME + ":" + server.getAddress().getPort(), "proxy-authorization=null", "body=ping");
    EgressConnection recorded = session.connections().get(0);
    assertThat(recorded.protocol()).isEqualTo("http");
    assertThat(recorded.outcome()).isEqualTo(Outcome.ALLOWED);
    assertThat(recorded.bytesSent()).isPositive();
    assertThat(recorded.bytesReceived()).isPositive();
  }

  @Test
  void aLargeResponseIsRelayedWhole() throws IOException {
    byte[] body = new byte[4 << 20];
    java.util.Arrays.fill(body, (byte) 'x');
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    try {
      int port = server.getAddress().getPort();
      openPrivate(port);
      for (String request : List.of(
          "GET http://" + NAME + ":" + port + "/big HTTP/1.1\r\nHost: " + NAME + "\r\n\r\n",
          "CONNECT " + NAME + ":" + port + " HTTP/1.1\r\n\r\n")) {
        try (ProxyClient client = ProxyClient.connect(session.socket())) {
          client.send(request);
          if (request.startsWith("CONNECT")) {
            assertThat(client.readHead()).startsWith("HTTP/1.1 200");
            client.send("GET /big HTTP/1.1\r\nHost: " + NAME + "\r\nConnection: close\r\n\r\n");
          }
          String head = client.readHead();
          assertThat(head).startsWith("HTTP/1.1 200");
          assertThat(client.readToEnd()).hasSize(body.length);
        }
      }
    } finally {
      server.stop(0);
    }
    assertThat(session.connections()).extracting(EgressConnection::bytesReceived).allMatch(bytes -> bytes > body.length);
  }

  @Test
  void aSecondRequestOnThePlainConnectionIsNotForwarded() throws IOException {
    List<String> paths = new CopyOnWriteArrayList<>();
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      paths.add(exchange.getRequestURI().getPath());
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    server.start();
    try {
      int port = server.getAddress().getPort();
      openPrivate(port);
      try (ProxyClient client = ProxyClient.connect(session.socket())) {
        client.send("GET http://" + NAME + ":" + port + "/first HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET http://" + NAME + ":" + port + "/second HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(client.readToEnd()).startsWith("HTTP/1.1 200");
      }
    } finally {
      server.stop(0);
    }

    assertThat(paths).containsExactly("/first");
    assertThat(session.connections()).hasSize(1);
  }

  @Test
  void socks5ConnectsToAGrantedDomainName() throws IOException {
    openPrivate(echo.port());

    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      assertThat(client.socksGreeting()).isEqualTo((byte) 0);
      assertThat(client.socksConnect(NAME, echo.port())).isEqualTo((byte) 0);
      client.send("ping");
      assertThat(client.readText(4)).isEqualTo("ping");
    }

    EgressConnection recorded = session.connections().get(0);
    assertThat(recorded.protocol()).isEqualTo("socks5");
    assertThat(recorded.outcome()).isEqualTo(Outcome.ALLOWED);
    assertThat(recorded.bytesSent()).isEqualTo(4);
  }

  @Test
  void socks5DataSentWithTheRequestIsRelayedOnceConnected() throws IOException {
    openPrivate(echo.port());

    try (ProxyClient client = ProxyClient.connect(session.socket())) {
      byte[] name = NAME.getBytes(StandardCharsets.US_ASCII);
      java.nio.ByteBuffer all = java.nio.ByteBuffer.allocate(3 + 7 + name.length + 5);
      all.put(new byte[] {5, 1, 0});
      all.put((byte) 5).put((byte) 1).put((byte) 0).put((byte) 3).put((byte) name.length).put(name).putShort((short) echo.port());
      all.put("early".getBytes(StandardCharsets.US_ASCII));
      client.send(all.array());
      assertThat(client.read(2)).containsExactly(5, 0);
      assertThat(client.read(10)[1]).isEqualTo((byte) 0);
      assertThat(client.readText(5)).isEqualTo("early");
    }
  }

  @Test
  void aSessionIsFoundThroughThePluginLoaderWithIdNetty() {
    var gateways = dev.capability.kernel.api.plugin.Plugins.load(
        dev.capability.kernel.api.network.EgressGateway.class,
        dev.capability.kernel.api.network.EgressGateway::id,
        getClass().getClassLoader());

    assertThat(gateways).containsKey("netty");
    assertThat(gateways.get("netty")).isInstanceOf(NettyEgressGateway.class);
  }

  @Test
  void theSocketIsConnectableByAnyUserInADirectoryOnlyTheOwnerCanEnter() throws IOException {
    openPrivate(echo.port());

    assertThat(java.nio.file.Files.getPosixFilePermissions(session.socket()))
        .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-rw-"));
    assertThat(java.nio.file.Files.getPosixFilePermissions(session.socket().getParent()))
        .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    assertThat(session.socket().getFileName()).hasToString("proxy.sock");
  }

  static void assertRefused(EgressSession session, String reason) {
    assertThat(session.connections()).singleElement().satisfies(c -> {
      assertThat(c.outcome()).isEqualTo(Outcome.REFUSED);
      assertThat(c.reason()).isEqualTo(reason);
      assertThat(c.bytesSent()).isZero();
      assertThat(c.bytesReceived()).isZero();
    });
  }
}
