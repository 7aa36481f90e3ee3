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
 * changing load falls on both alike. Each GET is a new connection with {@code Connection: close},
 * as the proxy serves one request per connection; the client is the same few lines of byte I/O
 * both ways, over TCP direct and over the proxy's Unix socket with an absolute URI, as a
 * sandbox's relay would send it. The in-sandbox relay's own hop is not part of this.
 *
 * <p>Run with {@code java -cp bench/target/benchmarks.jar dev.capability.bench.EgressThroughput [rounds
 * [body bytes]]}; the body is 1 MiB unless given.
 */
public final class EgressThroughput {
  private static final String NAME = "bench.test";
  private static final int WARM_UP_ROUNDS = 50;
  private static final com.sun.management.OperatingSystemMXBean PROCESS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private EgressThroughput() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int bodyBytes = args.length > 1 ? Integer.parseInt(args[1]) : 1 << 20;
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
    EgressLimits limits = new EgressLimits(rounds + WARM_UP_ROUNDS, 4, 16 * 1024, Long.MAX_VALUE,
        Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(60));
    EgressRules rules = new EgressRules(List.of(new EgressDestination(NAME, port)), Set.of(NAME), limits);
    NettyEgressGateway gateway = new NettyEgressGateway(host -> List.of(InetAddress.getLoopbackAddress()), sockets);
    long[] direct = new long[rounds];
    long[] proxied = new long[rounds];
    long[] ratio = new long[rounds];
    long[] directCpu = new long[rounds];
    long[] proxiedCpu = new long[rounds];
    try {
      SocketAddress origin = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
      String directRequest = "GET /big HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n";
      String proxyRequest = "GET http://" + NAME + ":" + port + "/big HTTP/1.1\r\nHost: " + NAME + "\r\nConnection: close\r\n\r\n";
      try (EgressSession session = gateway.open(rules)) {
        SocketAddress proxy = UnixDomainSocketAddress.of(session.socket());
        for (int round = -WARM_UP_ROUNDS; round < rounds; round++) {
          long cpu0 = PROCESS.getProcessCpuTime();
          long d = get(origin, directRequest, bodyBytes);
          long cpu1 = PROCESS.getProcessCpuTime();
          long p = get(proxy, proxyRequest, bodyBytes);
          long cpu2 = PROCESS.getProcessCpuTime();
          if (round >= 0) {
            direct[round] = d;
            proxied[round] = p;
            ratio[round] = p * 1000 / d;
            directCpu[round] = cpu1 - cpu0;
            proxiedCpu[round] = cpu2 - cpu1;
          }
        }
      }
    } finally {
      server.stop(0);
      Files.deleteIfExists(sockets);
    }
    Arrays.sort(direct);
    Arrays.sort(proxied);
    Arrays.sort(ratio);
    // The process's CPU clock ticks coarsely (10 ms here): only sums over all rounds mean anything.
    double directCpuMs = Arrays.stream(directCpu).sum() / 1e6 / rounds;
    double proxiedCpuMs = Arrays.stream(proxiedCpu).sum() / 1e6 / rounds;
    System.out.printf("%d rounds of a %d-byte GET; load average %.2f%n", rounds, bodyBytes,
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    System.out.printf("%-28s %10s %10s%n", "", "p25 ms", "median ms");
    System.out.printf("%-28s %10.3f %10.3f%n", "direct (TCP loopback)", direct[rounds / 4] / 1e6, direct[rounds / 2] / 1e6);
    System.out.printf("%-28s %10.3f %10.3f%n", "through the egress proxy", proxied[rounds / 4] / 1e6, proxied[rounds / 2] / 1e6);
    System.out.printf("proxied / direct: ratio of medians %.2f, median of paired ratios %.2f%n",
        (double) proxied[rounds / 2] / direct[rounds / 2], ratio[rounds / 2] / 1000.0);
    System.out.printf("process CPU ms per GET (server, client and proxy together), mean: direct %.3f, proxied %.3f, ratio %.2f%n",
        directCpuMs, proxiedCpuMs, proxiedCpuMs / directCpuMs);
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
