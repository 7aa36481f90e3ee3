package dev.capability.bench;

import com.sun.net.httpserver.HttpServer;
import dev.capability.egress.NettyEgressGateway;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.network.EgressLimits;
import dev.capability.kernel.api.network.EgressRules;
import dev.capability.kernel.api.network.EgressSession;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A 1 MiB HTTP GET from a loopback JDK {@code HttpServer}, direct and through the egress proxy,
 * timed in pairs milliseconds apart (as {@link WorkPlanOverhead} does) so that a busy machine's
 * changing load falls on both alike. Two ways, each against its own direct baseline:
 *
 * <ul>
 *   <li>{@code connection}: every GET on a new connection with {@code Connection: close}, as the
 *       proxy serves one plain-HTTP request per connection; through the proxy, an absolute URI
 *       over its Unix socket, as a sandbox's relay would send it. This pays the proxy's work per
 *       connection (parse, decide, connect) on every GET.
 *   <li>{@code tunnel}: one kept-alive connection, GET after GET; through the proxy, one {@code
 *       CONNECT} tunnel, as HTTPS clients use it. This is the relay's cost per byte alone.
 * </ul>
 *
 * The client is the same few lines of byte I/O both ways. The in-sandbox relay's own hop is not
 * part of this. Run with {@code java -cp bench/target/benchmarks.jar
 * dev.capability.bench.EgressThroughput [rounds [body bytes [connection|tunnel [warm-up seconds]]]]};
 * the body is 1 MiB and both ways run unless given. Each way first runs uncounted rounds for
 * {@link #WARM_UP} (60 seconds) unless given: the JIT compiler keeps compiling the proxy's
 * per-connection code for about 15 seconds (a third of the process's CPU before that), C2 was
 * still at 18 % of the process's samples 26 seconds in, and a warm-up counted in rounds was too
 * short for large bodies (docs/BENCHMARKS.md, "Steady state: a warm-up of 60 seconds").
 */
public final class EgressThroughput {
  private static final String NAME = "bench.test";
  private static final Duration WARM_UP = Duration.ofSeconds(60);
  private static final com.sun.management.OperatingSystemMXBean PROCESS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private EgressThroughput() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    int bodyBytes = args.length > 1 ? Integer.parseInt(args[1]) : 1 << 20;
    List<String> ways = args.length > 2 ? List.of(args[2]) : List.of("connection", "tunnel");
    Duration warmUp = args.length > 3 ? Duration.ofSeconds(Long.parseLong(args[3])) : WARM_UP;
    byte[] body = new byte[bodyBytes];
    Arrays.fill(body, (byte) 'x');
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    server.createContext("/", exchange -> {
      exchange.getRequestBody().readAllBytes();
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    int port = server.getAddress().getPort();
    Path sockets = Files.createTempDirectory("egress-bench");
    // One session for the whole run, as one run's proxy serves all its connections.
    EgressLimits limits = new EgressLimits(Integer.MAX_VALUE, 4, 16 * 1024, Long.MAX_VALUE,
        Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(60));
    EgressRules rules = new EgressRules(List.of(new EgressDestination(NAME, port)), Set.of(NAME), limits);
    NettyEgressGateway gateway = new NettyEgressGateway(host -> List.of(InetAddress.getLoopbackAddress()), sockets);
    System.out.printf("%d rounds of a %d-byte GET each way, after %d s not counted%n", rounds, bodyBytes, warmUp.toSeconds());
    try (EgressSession session = gateway.open(rules)) {
      SocketAddress origin = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
      SocketAddress proxy = UnixDomainSocketAddress.of(session.socket());
      for (String way : ways) {
        Timings timings = switch (way) {
          case "connection" -> newConnections(origin, proxy, port, rounds, bodyBytes, warmUp);
          case "tunnel" -> oneTunnel(origin, proxy, port, rounds, bodyBytes, warmUp);
          default -> throw new IllegalArgumentException("no way " + way + ": connection or tunnel");
        };
        timings.print(way);
      }
    } finally {
      server.stop(0);
      Files.deleteIfExists(sockets);
    }
  }

  /** The paired timings of one way, and the process's CPU time spent on each side of the pairs. */
  private static final class Timings {
    final long[] direct;
    final long[] proxied;
    final long[] ratio;
    final long[] directCpu;
    final long[] proxiedCpu;

    Timings(int rounds) {
      direct = new long[rounds];
      proxied = new long[rounds];
      ratio = new long[rounds];
      directCpu = new long[rounds];
      proxiedCpu = new long[rounds];
    }

    void record(int round, long d, long p, long dCpu, long pCpu) {
      direct[round] = d;
      proxied[round] = p;
      ratio[round] = p * 1000 / d;
      directCpu[round] = dCpu;
      proxiedCpu[round] = pCpu;
    }

    void print(String way) {
      int rounds = direct.length;
      Arrays.sort(direct);
      Arrays.sort(proxied);
      Arrays.sort(ratio);
      // The process's CPU clock ticks coarsely (10 ms here): only sums over all rounds mean anything.
      double directCpuMs = Arrays.stream(directCpu).sum() / 1e6 / rounds;
      double proxiedCpuMs = Arrays.stream(proxiedCpu).sum() / 1e6 / rounds;
      System.out.printf("%n%s: load average %.2f%n", way, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
      System.out.printf("%-28s %10s %10s%n", "", "p25 ms", "median ms");
      System.out.printf("%-28s %10.3f %10.3f%n", "direct (TCP loopback)", direct[rounds / 4] / 1e6, direct[rounds / 2] / 1e6);
      System.out.printf("%-28s %10.3f %10.3f%n", "through the egress proxy", proxied[rounds / 4] / 1e6, proxied[rounds / 2] / 1e6);
      System.out.printf("proxied / direct: ratio of medians %.2f, median of paired ratios %.2f%n",
          (double) proxied[rounds / 2] / direct[rounds / 2], ratio[rounds / 2] / 1000.0);
      System.out.printf("process CPU ms per GET (server, client and proxy together), mean: direct %.3f, proxied %.3f, ratio %.2f%n",
          directCpuMs, proxiedCpuMs, proxiedCpuMs / directCpuMs);
    }
  }

  private static Timings newConnections(SocketAddress origin, SocketAddress proxy, int port, int rounds, int bodyBytes,
      Duration warmUp)
      throws IOException {
    String directRequest = "GET /big HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n";
    String proxyRequest = "GET http://" + NAME + ":" + port + "/big HTTP/1.1\r\nHost: " + NAME + "\r\nConnection: close\r\n\r\n";
    Timings timings = new Timings(rounds);
    long warmUntil = System.nanoTime() + warmUp.toNanos();
    while (System.nanoTime() < warmUntil) {
      get(origin, directRequest, bodyBytes);
      get(proxy, proxyRequest, bodyBytes);
    }
    for (int round = 0; round < rounds; round++) {
      long cpu0 = PROCESS.getProcessCpuTime();
      long d = get(origin, directRequest, bodyBytes);
      long cpu1 = PROCESS.getProcessCpuTime();
      long p = get(proxy, proxyRequest, bodyBytes);
      long cpu2 = PROCESS.getProcessCpuTime();
      timings.record(round, d, p, cpu1 - cpu0, cpu2 - cpu1);
    }
    return timings;
  }

  private static Timings oneTunnel(SocketAddress origin, SocketAddress proxy, int port, int rounds, int bodyBytes,
      Duration warmUp)
      throws IOException {
    String request = "GET /big HTTP/1.1\r\nHost: " + NAME + ":" + port + "\r\n\r\n";
    Timings timings = new Timings(rounds);
    try (SocketChannel direct = SocketChannel.open(origin); SocketChannel tunnel = SocketChannel.open(proxy)) {
      ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
      send(tunnel, "CONNECT " + NAME + ":" + port + " HTTP/1.1\r\nHost: " + NAME + ":" + port + "\r\n\r\n");
      String answer = readHead(tunnel, buffer);
      if (!answer.startsWith("HTTP/1.1 200")) {
        throw new IOException("the proxy refused the tunnel: " + answer);
      }
      long warmUntil = System.nanoTime() + warmUp.toNanos();
      while (System.nanoTime() < warmUntil) {
        keptAliveGet(direct, request, bodyBytes, buffer);
        keptAliveGet(tunnel, request, bodyBytes, buffer);
      }
      for (int round = 0; round < rounds; round++) {
        long cpu0 = PROCESS.getProcessCpuTime();
        long d = keptAliveGet(direct, request, bodyBytes, buffer);
        long cpu1 = PROCESS.getProcessCpuTime();
        long p = keptAliveGet(tunnel, request, bodyBytes, buffer);
        long cpu2 = PROCESS.getProcessCpuTime();
        timings.record(round, d, p, cpu1 - cpu0, cpu2 - cpu1);
      }
    }
    return timings;
  }

  /** Wall nanoseconds of one GET on a kept-alive connection, the response read by its length. */
  private static long keptAliveGet(SocketChannel channel, String request, int bodyBytes, ByteBuffer buffer)
      throws IOException {
    long start = System.nanoTime();
    send(channel, request);
    String head = readHead(channel, buffer);
    int length = contentLength(head);
    if (length != bodyBytes) {
      throw new IOException("a body of " + length + " bytes, not " + bodyBytes + ": " + head);
    }
    long read = buffer.remaining();
    buffer.clear();
    while (read < length) {
      int n = channel.read(buffer);
      if (n < 0) {
        throw new IOException("the connection ended after " + read + " of " + length + " bytes");
      }
      read += n;
      buffer.clear();
    }
    if (read > length) {
      throw new IOException("more than the body arrived");
    }
    buffer.clear().flip();
    return System.nanoTime() - start;
  }

  private static void send(SocketChannel channel, String text) throws IOException {
    ByteBuffer out = ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
    while (out.hasRemaining()) {
      channel.write(out);
    }
  }

  /**
   * Reads up to the end of a response head and returns it; {@code buffer} is left holding what came
   * after it, ready to be read.
   */
  private static String readHead(SocketChannel channel, ByteBuffer buffer) throws IOException {
    StringBuilder head = new StringBuilder();
    buffer.clear();
    while (true) {
      if (channel.read(buffer) < 0) {
        throw new IOException("the connection ended in a response head: " + head);
      }
      buffer.flip();
      while (buffer.hasRemaining()) {
        head.append((char) buffer.get());
        if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
          return head.toString();
        }
      }
      buffer.clear();
    }
  }

  private static int contentLength(String head) {
    for (String line : head.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
        return Integer.parseInt(line.substring(colon + 1).trim());
      }
    }
    return -1;
  }

  /** Wall nanoseconds of one GET over a new connection to {@code address}, the whole body read. */
  private static long get(SocketAddress address, String request, int bodyBytes) throws IOException {
    long start = System.nanoTime();
    long read = 0;
    try (SocketChannel channel = SocketChannel.open(address)) {
      ByteBuffer out = ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII));
      while (out.hasRemaining()) {
        channel.write(out);
      }
      ByteBuffer in = ByteBuffer.allocate(64 * 1024);
      for (int n = channel.read(in); n >= 0; n = channel.read(in.clear())) {
        read += n;
      }
    }
    long elapsed = System.nanoTime() - start;
    if (read < bodyBytes) {
      throw new IOException("read " + read + " bytes, fewer than the body's " + bodyBytes);
    }
    return elapsed;
  }
}
