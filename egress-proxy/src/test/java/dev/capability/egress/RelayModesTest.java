package dev.capability.egress;

import static dev.capability.egress.TestResolver.address;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.capability.egress.internal.ProxySession;
import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.network.EgressConnection.Outcome;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.network.EgressLimits;
import dev.capability.kernel.api.network.EgressRefusal;
import dev.capability.kernel.api.network.EgressRules;
import dev.capability.linux.NativeAccess;
import io.netty.channel.epoll.Epoll;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The two relays behind every allowed connection, the same tests for each: bytes spliced in the
 * kernel (where epoll and native calls are available, as on every Linux this project supports)
 * and bytes copied through Netty's buffers (everywhere else). Each must move megabytes intact,
 * count every byte each way, stop at the byte budget and the idle timeout, and leave no thread
 * behind when the session closes mid-transfer.
 */
@Timeout(120)
class RelayModesTest {
  private static final String NAME = "granted.test";
  private static final int MEGABYTES = 8 << 20;

  @TempDir Path temp;
  private ProxySession session;
  private EchoServer echo;

  @AfterEach
  void close() throws IOException {
    if (session != null) {
      session.close();
    }
    if (echo != null) {
      echo.close();
    }
  }

  private void open(boolean splicing, int port, EgressLimits limits) {
    EgressRules rules = new EgressRules(List.of(new EgressDestination(NAME, port)), Set.of(NAME), limits);
    session = ProxySession.open(rules, new TestResolver(Map.of(NAME, List.of(address("127.0.0.1")))), temp, splicing);
  }

  private static EgressLimits limits(long maxBytes, Duration idle) {
    return new EgressLimits(16, 8, 16384, maxBytes, Duration.ofSeconds(10), Duration.ofSeconds(10), idle);
  }

  private SocketChannel tunnel(int port) throws IOException {
    SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(session.socket()));
    write(channel, ("CONNECT " + NAME + ":" + port + " HTTP/1.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    String head = readHead(channel);
    assertThat(head).startsWith("HTTP/1.1 200");
    return channel;
  }

  @ParameterizedTest(name = "splicing: {0}")
  @ValueSource(booleans = {true, false})
  void aTunnelMovesMegabytesBothWaysIntactAndCountsEveryByte(boolean splicing) throws Exception {
    echo = new EchoServer();
    open(splicing, echo.port(), limits(Long.MAX_VALUE, Duration.ofSeconds(30)));
    byte[] sent = new byte[MEGABYTES];
    new Random(20).nextBytes(sent);

    byte[] received;
    try (SocketChannel client = tunnel(echo.port())) {
      CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> write(client, sent));
      received = read(client, sent.length);
      assertThat(relayThreads().isEmpty()).as("no relay threads while a tunnel is open")
          .isEqualTo(!(splicing && splicingAvailable()));
      writing.get();
      client.shutdownOutput();
      assertThat(client.read(ByteBuffer.allocate(1))).as("the end, once the client has ended").isEqualTo(-1);
    }

    assertThat(sha256(received)).isEqualTo(sha256(sent));
    EgressConnection recorded = session.connections().get(0);
    assertThat(recorded.outcome()).isEqualTo(Outcome.ALLOWED);
    assertThat(recorded.bytesSent()).isEqualTo(MEGABYTES);
    assertThat(recorded.bytesReceived()).isEqualTo(MEGABYTES);
  }

  @ParameterizedTest(name = "splicing: {0}")
  @ValueSource(booleans = {true, false})
  void aPlainRequestGetsItsWholeLargeResponseCounted(boolean splicing) throws Exception {
    byte[] body = new byte[MEGABYTES];
    new Random(21).nextBytes(body);
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    byte[] response;
    try {
      int port = server.getAddress().getPort();
      open(splicing, port, limits(Long.MAX_VALUE, Duration.ofSeconds(30)));
      try (SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(session.socket()))) {
        write(client, ("GET http://" + NAME + ":" + port + "/big HTTP/1.1\r\nHost: " + NAME + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        assertThat(readHead(client)).startsWith("HTTP/1.1 200");
        response = readToEnd(client);
      }
    } finally {
      server.stop(0);
    }

    assertThat(sha256(response)).isEqualTo(sha256(body));
    EgressConnection recorded = session.connections().get(0);
    assertThat(recorded.bytesReceived()).as("the head and the body").isGreaterThan(MEGABYTES).isLessThan(MEGABYTES + 1024);
    assertThat(recorded.bytesSent()).as("the rewritten request").isPositive().isLessThan(1024);
  }

  @ParameterizedTest(name = "splicing: {0}")
  @ValueSource(booleans = {true, false})
  void aPlainRequestWithALargeBodyIsForwardedWholeAndAnswered(boolean splicing) throws Exception {
    byte[] upload = new byte[2 * MEGABYTES];
    new Random(22).nextBytes(upload);
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try {
        // A slow reader: the socket buffers fill, the proxy stops reading the client, and must
        // start again once the server reads.
        Thread.sleep(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      byte[] received = exchange.getRequestBody().readAllBytes();
      byte[] answer;
      try {
        answer = sha256(received).getBytes(StandardCharsets.US_ASCII);
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
      exchange.sendResponseHeaders(200, answer.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer);
      }
    });
    server.start();
    String answer;
    try {
      int port = server.getAddress().getPort();
      open(splicing, port, limits(Long.MAX_VALUE, Duration.ofSeconds(30)));
      try (SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(session.socket()))) {
        CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
          write(client, ("POST http://" + NAME + ":" + port + "/upload HTTP/1.1\r\nHost: " + NAME
              + "\r\nContent-Length: " + upload.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
          write(client, upload);
        });
        assertThat(readHead(client)).startsWith("HTTP/1.1 200");
        answer = new String(readToEnd(client), StandardCharsets.US_ASCII);
        writing.get();
      }
    } finally {
      server.stop(0);
    }

    assertThat(answer).as("the server got the whole body").isEqualTo(sha256(upload));
    assertThat(session.connections().get(0).bytesSent()).isGreaterThan(2L * MEGABYTES);
  }

  @ParameterizedTest(name = "splicing: {0}")
  @ValueSource(booleans = {true, false})
  void aPlainRequestWhereNothingListensIsAnsweredBadGatewayAndRecordedFailed(boolean splicing) throws Exception {
    int closedPort;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = probe.getLocalPort();
    }
    open(splicing, closedPort, limits(Long.MAX_VALUE, Duration.ofSeconds(30)));

    try (SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(session.socket()))) {
      write(client, get(closedPort, "/"));
      assertThat(readHead(client)).startsWith("HTTP/1.1 502");
    }

    EgressConnection recorded = session.connections().get(0);
    assertThat(recorded.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(recorded.reason()).isEqualTo(EgressRefusal.CONNECT_FAILED);
  }

  @ParameterizedTest(name = "splicing: {0}")
  @ValueSource(booleans = {true, false})
  void aPlainRequestForANameThatLeadsToAForbiddenAddressIsRefused(boolean splicing) throws Exception {
    echo = new EchoServer();
    // The name is granted, but not to private addresses: it resolves to loopback.
    EgressRules rules = new EgressRules(List.of(new EgressDestination(NAME, echo.port())), Set.of(),
        limits(Long.MAX_VALUE, Duration.ofSeconds(30)));
    session = ProxySession.open(rules, new TestResolver(Map.of(NAME, List.of(address("127.0.0.1")))), temp, splicing);

    try (SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(session.socket()))) {
      write(client, get(echo.port(), "/"));
      assertThat(readHead(client)).startsWith("HTTP/1.1 403");
    }

    EgressConnection recorded = session.connections().get(0);
    assertThat(recorded.outcome()).isEqualTo(Outcome.REFUSED);
    assertThat(recorded.reason()).isEqualTo(EgressRefusal.FORBIDDEN_ADDRESS);
  }

  @ParameterizedTest(name = "splicing: {0}")
  @ValueSource(booleans = {true, false})
  void aPlainResponsePastTheByteBudgetIsCutAndRecordedAsALimit(boolean splicing) throws Exception {
    byte[] body = new byte[4 << 20];
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      } catch (IOException cut) {
        // the proxy cut the connection at the budget
      }
    });
    server.start();
    long received;
    try {
      int port = server.getAddress().getPort();
      open(splicing, port, limits(1 << 20, Duration.ofSeconds(30)));
      try (SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(session.socket()))) {
        write(client, get(port, "/big"));
        received = readToEnd(client).length;
      }
    } finally {
      server.stop(0);
    }

    EgressConnection recorded = session.connections().get(0);
    assertThat(recorded.outcome()).isEqualTo(Outcome.REFUSED);
    assertThat(recorded.reason()).isEqualTo(EgressRefusal.LIMIT);
    assertThat(recorded.bytesSent() + recorded.bytesReceived()).isLessThanOrEqualTo(1 << 20);
    assertThat(received).isLessThanOrEqualTo(recorded.bytesReceived());
  }

  /** A second request pipelined behind the first must not reach the destination: one request per connection. */
  @ParameterizedTest(name = "splicing: {0}")
  @ValueSource(booleans = {true, false})
  void onlyTheFirstRequestOfAConnectionReachesTheDestination(boolean splicing) throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      CompletableFuture<String> seen = CompletableFuture.supplyAsync(() -> {
        try (Socket accepted = server.accept()) {
          accepted.setSoTimeout(1000);
          java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
          byte[] chunk = new byte[4096];
          try {
            for (int n = accepted.getInputStream().read(chunk); n >= 0; n = accepted.getInputStream().read(chunk)) {
              all.write(chunk, 0, n);
            }
          } catch (SocketTimeoutException quiet) {
            // nothing more came for a second: answer what did
          }
          accepted.getOutputStream().write(
              "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
          return all.toString(StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      int port = server.getLocalPort();
      open(splicing, port, limits(Long.MAX_VALUE, Duration.ofSeconds(30)));

      String response;
      try (SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(session.socket()))) {
        byte[] first = get(port, "/first");
        byte[] second = get(port, "/second");
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        write(client, both);
        response = new String(readToEnd(client), StandardCharsets.US_ASCII);
      }

      assertThat(response).startsWith("HTTP/1.1 200").endsWith("ok");
      assertThat(seen.get()).startsWith("GET /first HTTP/1.1\r\n").doesNotContain("/second")
          .endsWith("\r\n\r\n").containsOnlyOnce("GET ");
    }
  }

  private static byte[] get(int port, String path) {
    return ("GET http://" + NAME + ":" + port + path + " HTTP/1.1\r\nHost: " + NAME + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  @ParameterizedTest(name = "splicing: {0}")
  @ValueSource(booleans = {true, false})
  void aTransferPastTheByteBudgetIsCutAndRecordedAsALimit(boolean splicing) throws Exception {
    echo = new EchoServer();
    open(splicing, echo.port(), limits(1 << 20, Duration.ofSeconds(30)));
    byte[] sent = new byte[4 << 20];

    long received;
    try (SocketChannel client = tunnel(echo.port())) {
      CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
        try {
          write(client, sent);
        } catch (RuntimeException cut) {
          // the proxy stops reading and closes: the rest cannot be sent
        }
      });
      received = readToEnd(client).length;
      writing.get();
    }

    EgressConnection recorded = session.connections().get(0);
    assertThat(recorded.outcome()).isEqualTo(Outcome.REFUSED);
    assertThat(recorded.reason()).isEqualTo(EgressRefusal.LIMIT);
    assertThat(recorded.bytesSent() + recorded.bytesReceived()).isLessThanOrEqualTo(1 << 20);
    assertThat(received).isLessThanOrEqualTo(recorded.bytesReceived());
  }

  @ParameterizedTest(name = "splicing: {0}")
  @ValueSource(booleans = {true, false})
  void aRelayedConnectionIdleForTheTimeoutIsClosed(boolean splicing) throws IOException {
    echo = new EchoServer();
    open(splicing, echo.port(), limits(Long.MAX_VALUE, Duration.ofMillis(500)));

    try (SocketChannel client = tunnel(echo.port())) {
      assertThat(client.read(ByteBuffer.allocate(1))).as("closed after half a second of silence").isEqualTo(-1);
    }

    assertThat(session.connections().get(0).outcome()).isEqualTo(Outcome.ALLOWED);
  }

  @ParameterizedTest(name = "splicing: {0}")
  @ValueSource(booleans = {true, false})
  void closingTheSessionMidTransferEndsTheTransferAndEveryThread(boolean splicing) throws Exception {
    echo = new EchoServer();
    open(splicing, echo.port(), limits(Long.MAX_VALUE, Duration.ofSeconds(30)));
    String prefix = session.socket().getParent().getFileName() + "-";

    try (SocketChannel client = tunnel(echo.port())) {
      CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
        try {
          for (int i = 0; i < 1000; i++) {
            write(client, new byte[1 << 20]);
          }
        } catch (RuntimeException ended) {
          // the session closed under the writer
        }
      });
      read(client, 1 << 20);

      session.close();

      readToEnd(client);
      writing.get();
    }
    assertThat(threadsNamed(prefix)).isEmpty();
  }

  private static boolean splicingAvailable() {
    return Epoll.isAvailable() && NativeAccess.problem().isEmpty();
  }

  private List<String> relayThreads() {
    return threadsNamed(session.socket().getParent().getFileName() + "-relay");
  }

  private static List<String> threadsNamed(String prefix) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(name -> name.startsWith(prefix))
        .toList();
  }

  private static void write(SocketChannel channel, byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    try {
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
    } catch (IOException e) {
      throw new RuntimeException(e);
    }
  }

  private static byte[] read(SocketChannel channel, int count) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(count);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer) < 0) {
        throw new IOException("closed after " + buffer.position() + " of " + count + " bytes");
      }
    }
    return buffer.array();
  }

  private static byte[] readToEnd(SocketChannel channel) throws IOException {
    java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
    ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
    try {
      while (channel.read(buffer.clear()) >= 0) {
        all.write(buffer.array(), 0, buffer.position());
      }
    } catch (IOException reset) {
      // a cut connection may end in a reset rather than an orderly end
    }
    return all.toByteArray();
  }

  private static String readHead(SocketChannel channel) throws IOException {
    StringBuilder head = new StringBuilder();
    ByteBuffer one = ByteBuffer.allocate(1);
    while (!head.toString().endsWith("\r\n\r\n")) {
      if (channel.read(one.clear()) < 0) {
        throw new IOException("closed in the response head: " + head);
      }
      head.append((char) one.get(0));
    }
    return head.toString();
  }

  private static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
    return java.util.HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }
}
