package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import dev.capability.backend.tck.BackendGate;
import dev.capability.capability.runtime.internal.exec.ChildJvmExecutor;
import dev.capability.egress.EgressResolver;
import dev.capability.egress.NettyEgressGateway;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.network.EgressGateway;
import dev.capability.kernel.api.network.EgressRefusal;
import dev.capability.kernel.api.network.EgressRules;
import dev.capability.kernel.api.network.EgressSession;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capability granted {@code network.connect} runs in the child JVM with filtered egress: its
 * only way out is the host-owned egress proxy, which relays exactly the granted {@code host:port}.
 * The test names resolve through the proxy's injected resolver: {@code svc.test} and {@code
 * other.test} to a JDK HTTP server on the host's loopback ({@code svc.test} is the operator's
 * private-address name), {@code private.test} to {@code 10.0.0.1}. The same capability code tries
 * the granted destination over HTTP, {@code HttpClient} and a SOCKS socket, and then another port,
 * another name, IP literals, the host's loopback bypassing the proxy, a name that resolves to a
 * private address, {@code localhost}, the Docker bridge gateway and a {@code SocketChannel} (which
 * ignores proxies), and resolves a name itself. Each backend runs it.
 */
abstract class FilteredEgressContract {
  private static final String ENTRY = "com.example.Prober";
  @TempDir Path work;
  private HttpServer server;
  private HttpServer otherPort;
  private final List<String> seen = new ArrayList<>();
  private final List<String> seenOnOtherPort = new ArrayList<>();

  /** The backend under test; skipped where it cannot run. */
  abstract ExecutionBackend gatedBackend();

  /**
   * The backend, when it supplies filtered egress; otherwise the test is skipped with the
   * backend's reason, or fails under {@code CAPABILITY_REQUIRE_BACKENDS=1}.
   */
  ExecutionBackend backend() {
    ExecutionBackend backend = gatedBackend();
    if (!backend.capabilities().contains(IsolationCapability.FILTERED_EGRESS)) {
      String reason = backend.id() + " cannot supply FILTERED_EGRESS here: "
          + backend.diagnostics().getOrDefault(IsolationCapability.FILTERED_EGRESS.name(), "no reason given");
      if ("1".equals(System.getenv(BackendGate.REQUIRE_VARIABLE))) {
        fail(reason + " (" + BackendGate.REQUIRE_VARIABLE + "=1 requires every backend)");
      }
      assumeTrue(false, reason);
    }
    return backend;
  }

  @BeforeEach
  void serve() throws IOException {
    // The sandbox runs as another user: the test's directories must let it through.
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
    server = countingServer(seen);
    otherPort = countingServer(seenOnOtherPort);
  }

  @AfterEach
  void stop() {
    server.stop(0);
    otherPort.stop(0);
  }

  private static HttpServer countingServer(List<String> seen) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try (exchange) {
        synchronized (seen) {
          seen.add(exchange.getRequestURI().getPath());
        }
        byte[] body = "hello".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
      }
    });
    server.start();
    return server;
  }

  private static EgressResolver testNames() {
    return host -> {
      try {
        return switch (host) {
          case "svc.test", "other.test" -> List.of(InetAddress.getByName("127.0.0.1"));
          case "private.test" -> List.of(InetAddress.getByName("10.0.0.1"));
          default -> List.of();
        };
      } catch (UnknownHostException e) {
        throw new IllegalStateException(e);
      }
    };
  }

  private int port() {
    return server.getAddress().getPort();
  }

  private Executor executor(Set<String> privateAddressNames) {
    return new ChildJvmExecutor(backend().id(), false, List.of(backend()), work)
        .withEgress(Optional.of(new NettyEgressGateway(testNames())), privateAddressNames);
  }

  private ExecutionReceipt run(Executor executor, String effects) throws IOException {
    byte[] jar = TestPackages.jar(work, Map.of(ENTRY, prober(port(), otherPort.getAddress().getPort())), null, Map.of());
    CapabilityPackage pkg = CapabilityPackages.open(TestPackages.directory(work.resolve("packages/prober"), jar, ENTRY, effects));
    // Not closed: closing the runtime would close the backend the gate owns.
    CapabilityRuntime runtime = CapabilityRuntime.builder().executor(executor).policy(EffectPolicies.permissive(Approval::grant)).build();
    return runtime.run(pkg, "{\"text\":\"x\"}");
  }

  /**
   * A capability that makes each attempt in turn and reports what became of it: {@code status N}
   * for an HTTP answer, {@code reply ...} for the first bytes of a raw socket's answer, or {@code
   * failed <exception>}.
   */
  private static String prober(int port, int otherPort) {
    return """
        package com.example;
        public final class Prober implements dev.capability.capability.api.Capability {
          @Override
          public String execute(String in, dev.capability.capability.api.CapabilityContext context) {
            StringBuilder out = new StringBuilder("{");
            add(out, "http", http("http://svc.test:PORT/http"));
            add(out, "client", client("http://svc.test:PORT/client"));
            add(out, "socks", socks("svc.test", PORT));
            add(out, "otherPort", http("http://svc.test:OTHER/other-port"));
            add(out, "otherName", http("http://other.test:PORT/other-name"));
            add(out, "literal", http("http://127.0.0.1:PORT/literal"));
            add(out, "socksLiteral", socks("127.0.0.1", PORT));
            add(out, "hostLoopback", direct("127.0.0.1", PORT));
            add(out, "private", http("http://private.test:PORT/private"));
            add(out, "localhost", http("http://localhost:PORT/localhost"));
            add(out, "gateway", http("http://172.17.0.1:PORT/gateway"));
            add(out, "gatewayDirect", direct("172.17.0.1", PORT));
            add(out, "channel", channel("127.0.0.1", PORT));
            add(out, "dns", dns("svc.test"));
            return out.append("\\"done\\":true}").toString();
          }

          @Override
          public boolean verify(String in, String out, dev.capability.capability.api.CapabilityContext context) {
            return true;
          }

          private static void add(StringBuilder out, String name, String result) {
            out.append('"').append(name).append("\\":\\"").append(result).append("\\",");
          }

          private static String http(String url) {
            try {
              java.net.HttpURLConnection connection = (java.net.HttpURLConnection) new java.net.URL(url).openConnection();
              connection.setConnectTimeout(10000);
              connection.setReadTimeout(10000);
              return "status " + connection.getResponseCode();
            } catch (Exception e) {
              return "failed " + e.getClass().getSimpleName();
            }
          }

          private static String client(String url) {
            try {
              java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder().connectTimeout(java.time.Duration.ofSeconds(10)).build();
              java.net.http.HttpResponse<String> response = client.send(
                  java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).timeout(java.time.Duration.ofSeconds(10)).build(),
                  java.net.http.HttpResponse.BodyHandlers.ofString());
              return "status " + response.statusCode();
            } catch (Exception e) {
              return "failed " + e.getClass().getSimpleName();
            }
          }

          private static String socks(String host, int port) {
            try (java.net.Socket socket = new java.net.Socket(host, port)) {
              socket.setSoTimeout(10000);
              socket.getOutputStream().write(("GET /socks HTTP/1.0\\r\\nHost: " + host + "\\r\\n\\r\\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
              socket.getOutputStream().flush();
              return "reply " + new String(socket.getInputStream().readNBytes(12), java.nio.charset.StandardCharsets.US_ASCII);
            } catch (Exception e) {
              return "failed " + e.getClass().getSimpleName();
            }
          }

          private static String channel(String host, int port) {
            try (java.nio.channels.SocketChannel channel = java.nio.channels.SocketChannel.open(new java.net.InetSocketAddress(host, port))) {
              return "connected";
            } catch (Exception e) {
              return "failed " + e.getClass().getSimpleName();
            }
          }

          private static String dns(String host) {
            try {
              return "resolved " + java.net.InetAddress.getByName(host).getHostAddress();
            } catch (Exception e) {
              return "failed " + e.getClass().getSimpleName();
            }
          }

          private static String direct(String host, int port) {
            try (java.net.Socket socket = new java.net.Socket(java.net.Proxy.NO_PROXY)) {
              socket.connect(new java.net.InetSocketAddress(host, port), 5000);
              return "connected";
            } catch (Exception e) {
              return "failed " + e.getClass().getSimpleName();
            }
          }
        }
        """.replace("OTHER", Integer.toString(otherPort)).replace("PORT", Integer.toString(port));
  }

  @Test
  void aGrantedCapabilityReachesItsDestinationAndNothingElseAndTheReceiptListsEveryRefusal() throws IOException {
    String granted = "svc.test:" + port();
    String privateName = "private.test:" + port();

    ExecutionReceipt receipt =
        run(executor(Set.of("svc.test")), "{\"network.connect\": [\"" + granted + "\", \"" + privateName + "\"]}");

    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    String output = receipt.output().orElseThrow();
    String evidence = output + "\n" + receipt.violations() + "\n" + receipt.attestation().orElseThrow().egress();
    assertThat(output)
        .as("the granted destination over HTTP, HttpClient and SOCKS: " + evidence)
        .contains("\"http\":\"status 200\"", "\"client\":\"status 200\"", "\"socks\":\"reply HTTP/1.1 200\"");
    assertThat(output)
        .as("every other attempt failed: " + evidence)
        .doesNotContain("\"otherPort\":\"status 200\"", "\"otherName\":\"status 200\"", "\"literal\":\"status 200\"",
            "\"private\":\"status 200\"", "\"localhost\":\"status 200\"", "\"gateway\":\"status 200\"", "connected",
            "\"socksLiteral\":\"reply")
        .as("the sandbox has no DNS: only the proxy resolves names")
        .contains("\"dns\":\"failed UnknownHostException\"");
    assertThat(seen).as("the server saw only the granted requests").containsExactly("/http", "/client", "/socks");
    assertThat(seenOnOtherPort).as("the other port saw nothing").isEmpty();

    assertThat(receipt.usedEffects()).containsExactly(Effect.of("network.connect", granted));
    assertThat(receipt.violations())
        .extracting(EffectViolation::target, EffectViolation::code)
        .contains(
            tuple("svc.test:" + otherPort.getAddress().getPort(), EgressRefusal.NOT_GRANTED),
            tuple("other.test:" + port(), EgressRefusal.NOT_GRANTED),
            tuple("127.0.0.1:" + port(), EgressRefusal.IP_LITERAL),
            tuple(privateName, EgressRefusal.FORBIDDEN_ADDRESS),
            tuple("localhost:" + port(), EgressRefusal.NOT_GRANTED),
            tuple("172.17.0.1:" + port(), EgressRefusal.IP_LITERAL));
    assertThat(receipt.violations()).allSatisfy(violation -> assertThat(violation.kind()).isEqualTo(EffectKind.NETWORK_CONNECT));

    Attestation attestation = receipt.attestation().orElseThrow();
    assertThat(attestation.network()).isEqualTo(NetworkMode.FILTERED);
    assertThat(attestation.argv()).contains("-Dhttp.proxyHost=127.0.0.1", "-DsocksProxyHost=127.0.0.1", "-Dhttp.nonProxyHosts=");
    assertThat(attestation.egress())
        .filteredOn(connection -> connection.outcome() == EgressConnection.Outcome.ALLOWED)
        .extracting(EgressConnection::protocol, EgressConnection::host, EgressConnection::port)
        .containsExactly(tuple("http", "svc.test", port()), tuple("http", "svc.test", port()), tuple("socks5", "svc.test", port()));
    assertThat(attestation.egress())
        .filteredOn(connection -> connection.outcome() == EgressConnection.Outcome.ALLOWED)
        .allSatisfy(connection -> assertThat(connection.bytesReceived()).isPositive());
    assertThat(ExecutionReceipts.toJson(receipt).get("violations")).asInstanceOf(InstanceOfAssertFactories.LIST).hasSameSizeAs(receipt.violations());
  }

  @Test
  void withoutTheOperatorsSettingAGrantedNameThatResolvesToLoopbackIsRefused() throws IOException {
    ExecutionReceipt receipt = run(executor(Set.of()), "{\"network.connect\": [\"svc.test:" + port() + "\"]}");

    assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(receipt.output().orElseThrow()).doesNotContain("status 200", "reply HTTP");
    assertThat(seen).isEmpty();
    assertThat(receipt.usedEffects()).isEmpty();
    assertThat(receipt.violations())
        .extracting(EffectViolation::target, EffectViolation::code)
        .contains(tuple("svc.test:" + port(), EgressRefusal.FORBIDDEN_ADDRESS));
  }

  @Test
  void aProxyThatCannotStartRefusesTheRunAndNothingRuns() throws IOException {
    EgressGateway broken = new EgressGateway() {
      @Override
      public String id() {
        return "broken";
      }

      @Override
      public EgressSession open(EgressRules rules) {
        throw new NetworkFilterUnavailableException("the test's proxy cannot start");
      }
    };
    Executor executor = new ChildJvmExecutor(backend().id(), false, List.of(backend()), work).withEgress(Optional.of(broken), Set.of("svc.test"));

    ExecutionReceipt receipt = run(executor, "{\"network.connect\": [\"svc.test:" + port() + "\"]}");

    assertThat(receipt.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(receipt.code()).isEqualTo(CapabilityCodes.NETWORK_FILTER_UNAVAILABLE);
    assertThat(receipt.message()).contains("the test's proxy cannot start");
    assertThat(seen).isEmpty();
  }
}
