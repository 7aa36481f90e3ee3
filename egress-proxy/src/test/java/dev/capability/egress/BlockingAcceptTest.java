package dev.capability.egress;

import static dev.capability.egress.TestResolver.address;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where bytes are spliced, connections are accepted by blocking threads, which serve a whole
 * plain request without a body themselves and hand everything else to the event loop with the
 * bytes they read. These attack the seams of that split; the other tests of this module run every
 * rule through it as well.
 */
@Timeout(120)
class BlockingAcceptTest {
  private static final String NAME = "granted.test";
  private static final String REBOUND = "rebound.test";

  @TempDir Path temp;
  private HttpServer server;
  private ExecutorService handlers;
  private ProxySession session;
  private final AtomicInteger resolutions = new AtomicInteger();

  @BeforeEach
  void onlyWhereSplicing() {
    assumeTrue(Epoll.isAvailable() && NativeAccess.problem().isEmpty(), "blocking accept is used only where bytes are spliced");
  }

  @AfterEach
  void close() {
    if (session != null) {
      session.close();
    }
    if (server != null) {
      server.stop(0);
    }
    if (handlers != null) {
      handlers.shutdownNow();
    }
  }

  private int serve(CountDownLatch allArrived) throws IOException {
    handlers = Executors.newFixedThreadPool(8);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(handlers);
    server.createContext("/", exchange -> {
      allArrived.countDown();
      boolean together;
      try {
        together = allArrived.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        together = false;
      }
      byte[] body = (together ? "all here" : "alone").getBytes(StandardCharsets.US_ASCII);
      exchange.sendResponseHeaders(together ? 200 : 500, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    int port = server.getAddress().getPort();
    EgressLimits limits = new EgressLimits(64, 16, 16384, Long.MAX_VALUE, Duration.ofSeconds(10), Duration.ofSeconds(10),
        Duration.ofSeconds(30));
    EgressRules rules = new EgressRules(
        List.of(new EgressDestination(NAME, port), new EgressDestination(REBOUND, port)), Set.of(NAME), limits);
    EgressResolver resolver = host -> {
      resolutions.incrementAndGet();
      return host.equals(NAME) || host.equals(REBOUND) ? List.of(address("127.0.0.1")) : List.of();
    };
    session = ProxySession.open(rules, resolver, temp, true);
    return port;
  }

  @Test
  void moreRequestsAtOnceThanThreadsWaitingInAcceptAreEachServed() throws Exception {
    int clients = 6;
    int port = serve(new CountDownLatch(clients));
    ExecutorService clientThreads = Executors.newFixedThreadPool(clients);
    List<CompletableFuture<String>> responses = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      responses.add(CompletableFuture.supplyAsync(() -> exchange(get(NAME, port)), clientThreads));
    }
    clientThreads.shutdown();

    for (CompletableFuture<String> response : responses) {
      assertThat(response.get(90, TimeUnit.SECONDS)).as("each request reached the server while the others waited there")
          .startsWith("HTTP/1.1 200").endsWith("all here");
    }
    assertThat(session.connections()).hasSize(clients).allSatisfy(recorded -> {
      assertThat(recorded.outcome()).isEqualTo(Outcome.ALLOWED);
      assertThat(recorded.bytesReceived()).isPositive();
    });
  }

  @Test
  void aHeadSentInPiecesIsServedAllTheSame() throws Exception {
    int port = serve(new CountDownLatch(1));
    byte[] request = get(NAME, port);
    int half = request.length / 2;

    String response;
    try (SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(session.socket()))) {
      write(client, Arrays.copyOf(request, half));
      Thread.sleep(300); // the accepting thread has read the first half alone
      write(client, Arrays.copyOfRange(request, half, request.length));
      response = new String(readToEnd(client), StandardCharsets.US_ASCII);
    }

    assertThat(response).startsWith("HTTP/1.1 200").endsWith("all here");
    EgressConnection recorded = session.connections().get(0);
    assertThat(recorded.outcome()).isEqualTo(Outcome.ALLOWED);
    assertThat(recorded.host()).isEqualTo(NAME);
    assertThat(recorded.bytesSent()).isPositive();
  }

  @Test
  void aNameThatResolvesToAForbiddenAddressIsRefusedAfterOneResolutionAndTheServerSeesNothing() throws Exception {
    CountDownLatch arrived = new CountDownLatch(1);
    int port = serve(arrived);

    String response = exchange(get(REBOUND, port));

    assertThat(response).startsWith("HTTP/1.1 403").endsWith(EgressRefusal.FORBIDDEN_ADDRESS + "\n");
    assertThat(resolutions.get()).as("resolved once, by the accepting thread; the event loop answered its verdict").isEqualTo(1);
    assertThat(arrived.getCount()).as("nothing reached the server").isEqualTo(1);
    EgressConnection recorded = session.connections().get(0);
    assertThat(recorded.outcome()).isEqualTo(Outcome.REFUSED);
    assertThat(recorded.reason()).isEqualTo(EgressRefusal.FORBIDDEN_ADDRESS);
    assertThat(recorded.address()).isEqualTo("127.0.0.1");
  }

  @Test
  void aSocksClientAndATunnelOnTheSameSocketStillReachTheEventLoop() throws Exception {
    int port = serve(new CountDownLatch(1));

    try (SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(session.socket()))) {
      write(client, new byte[] {0x05, 0x01, 0x00});
      ByteBuffer choice = ByteBuffer.allocate(2);
      while (choice.hasRemaining() && client.read(choice) >= 0) {
        // the method choice
      }
      assertThat(choice.array()).containsExactly(0x05, 0x00);
    }
    String tunnel = exchange(("CONNECT other.test:" + port + " HTTP/1.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));

    assertThat(tunnel).startsWith("HTTP/1.1 403").contains(EgressRefusal.NOT_GRANTED);
    assertThat(session.connections()).extracting(EgressConnection::protocol).containsExactly("socks5", "connect");
  }

  private static byte[] get(String host, int port) {
    return ("GET http://" + host + ":" + port + "/ HTTP/1.1\r\nHost: " + host + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
  }

  private String exchange(byte[] request) {
    try (SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(session.socket()))) {
      write(client, request);
      return new String(readToEnd(client), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(SocketChannel channel, byte[] bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }

  private static byte[] readToEnd(SocketChannel channel) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
    while (channel.read(buffer.clear()) >= 0) {
      all.write(buffer.array(), 0, buffer.position());
    }
    return all.toByteArray();
  }
}
