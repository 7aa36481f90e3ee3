package dev.capability.cli;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.sun.net.httpserver.HttpServer;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.egress.EgressResolver;
import dev.capability.egress.NettyEgressGateway;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.network.EgressRefusal;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.kernel.core.LoadedPolicy;
import dev.capability.testing.Git;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command policy with a network allowlist, for real: under bwrap with {@code "network":
 * "filtered"}, {@code git ls-remote} reaches a dumb-HTTP Git server on loopback through the host's
 * egress proxy, because the policy grants {@code git.test:PORT} and lets that one name resolve to
 * loopback; the same command aimed at another name, another port or an IP literal is refused at the
 * proxy, the server it would have reached sees no request, and the attestation lists every refused
 * attempt and names it as a violation. Names resolve through the gateway's injected resolver,
 * {@code git.test} and {@code other.test} both to 127.0.0.1; the sandbox has no DNS and no route
 * of its own.
 */
class FilteredEgressGitTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final Map<String, String> HOST = Map.of("PATH", "/usr/bin:/bin", "LANG", "C.UTF-8");
  private static final EgressResolver TEST_NAMES = host -> switch (host) {
    case "git.test", "other.test" -> List.of(InetAddress.getLoopbackAddress());
    default -> List.of();
  };

  @TempDir Path tmp;
  private String head;
  private Server gitServer;
  private Server otherServer;

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  /** A server that serves the files under a directory and counts every request it gets. */
  private record Server(HttpServer http, AtomicInteger requests) {
    static Server serving(Path root) throws IOException {
      AtomicInteger requests = new AtomicInteger();
      HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      http.createContext("/", exchange -> {
        requests.incrementAndGet();
        Path file = root.resolve(exchange.getRequestURI().getPath().substring(1)).normalize();
        if (!file.startsWith(root) || !Files.isRegularFile(file)) {
          exchange.sendResponseHeaders(404, -1);
          exchange.close();
          return;
        }
        byte[] body = Files.readAllBytes(file);
        exchange.getResponseHeaders().set("Content-Type", "text/plain");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      });
      http.start();
      return new Server(http, requests);
    }

    int port() {
      return http.getAddress().getPort();
    }
  }

  @BeforeEach
  void servers() throws IOException {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path source = Git.initWithCommit(tmp.resolve("source"));
    head = git(source, "rev-parse", "HEAD").strip();
    Path served = Files.createDirectories(tmp.resolve("served"));
    git(tmp, "clone", "-q", "--bare", source.toString(), served.resolve("repo.git").toString());
    // A dumb-HTTP server needs only the files update-server-info writes (info/refs, objects/info/packs).
    git(served.resolve("repo.git"), "update-server-info");
    gitServer = Server.serving(served.toRealPath());
    otherServer = Server.serving(served.toRealPath());
  }

  @AfterEach
  void stop() {
    gitServer.http().stop(0);
    otherServer.http().stop(0);
  }

  private LoadedPolicy policy() {
    String url = "http://git.test:" + gitServer.port() + "/repo.git";
    String otherName = "http://other.test:" + gitServer.port() + "/repo.git";
    String otherPort = "http://git.test:" + otherServer.port() + "/repo.git";
    String literal = "http://127.0.0.1:" + otherServer.port() + "/repo.git";
    return ExecutionPolicies.parse("""
        {
          "version": 1,
          "network": "filtered",
          "egress": {"allow": ["git.test:%d"], "allowPrivateAddresses": ["git.test"]},
          "environment": {"inherit": ["PATH", "LANG"]},
          "executables": {
            "git": {"name": "git", "exact": [["ls-remote", "%s"], ["ls-remote", "%s"], ["ls-remote", "%s"], ["ls-remote", "%s"]]}
          }
        }
        """.formatted(gitServer.port(), url, otherName, otherPort, literal), "filtered-git");
  }

  /** Bwrap with filtered egress on this machine; skipped (or failed, when backends are required) otherwise. */
  private static ExecutionBackend filteringBwrap() {
    ExecutionBackend bwrap = BWRAP.backend();
    if (!bwrap.capabilities().contains(IsolationCapability.FILTERED_EGRESS)) {
      String reason = "bwrap cannot supply FILTERED_EGRESS here: "
          + bwrap.diagnostics().getOrDefault(IsolationCapability.FILTERED_EGRESS.name(), "no reason given");
      if ("1".equals(System.getenv(BackendGate.REQUIRE_VARIABLE))) {
        fail(reason + " (" + BackendGate.REQUIRE_VARIABLE + "=1 requires every backend)");
      }
      Assumptions.abort(reason);
    }
    return bwrap;
  }

  private ExecutionResult lsRemote(String url) {
    // Never closed: closing a kernel closes its backends, which the gate closes.
    CommandKernel kernel = CommandKernel.builder(policy())
        .discoverBackends(false).backend(filteringBwrap()).egressGateway(new NettyEgressGateway(TEST_NAMES))
        .hostEnvironment(HOST).workingDirectory(tmp).build();
    return kernel.execute(ExecutionRequest.argv("git", "ls-remote", url).backend("bwrap").build());
  }

  @Test
  void gitReachesTheGrantedServerThroughTheProxyAndTheAttestationRecordsTheConnection() {
    ExecutionResult result = lsRemote("http://git.test:" + gitServer.port() + "/repo.git");

    assertThat(result.status()).as(result.stderr().text()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(result.exitCode()).as(result.stderr().text()).hasValue(0);
    assertThat(result.stdout().text()).contains(head + "\tHEAD", head + "\trefs/heads/main");
    assertThat(gitServer.requests().get()).isPositive();
    Attestation attestation = result.attestation();
    assertThat(attestation.network()).isEqualTo(NetworkMode.FILTERED);
    assertThat(attestation.egress()).isNotEmpty().allSatisfy(connection -> {
      assertThat(connection.host()).isEqualTo("git.test");
      assertThat(connection.port()).isEqualTo(gitServer.port());
      assertThat(connection.outcome()).isEqualTo(EgressConnection.Outcome.ALLOWED);
      assertThat(connection.address()).isEqualTo("127.0.0.1");
    });
    assertThat(attestation.egress().stream().mapToLong(EgressConnection::bytesReceived).sum()).isPositive();
    assertThat(attestation.violations()).isEmpty();
    assertThat(AttestationJson.fromJson(CanonicalJson.serialize(AttestationJson.toMap(attestation)))).isEqualTo(attestation);
  }

  @Test
  void anotherNameForTheSameServerIsRefusedAtTheProxyAndTheServerSeesNothing() {
    ExecutionResult result = lsRemote("http://other.test:" + gitServer.port() + "/repo.git");

    assertRefused(result, "other.test", gitServer.port(), EgressRefusal.NOT_GRANTED);
    assertThat(gitServer.requests().get()).isZero();
  }

  @Test
  void anotherPortOfTheGrantedNameIsRefusedAtTheProxyAndThatServerSeesNothing() {
    ExecutionResult result = lsRemote("http://git.test:" + otherServer.port() + "/repo.git");

    assertRefused(result, "git.test", otherServer.port(), EgressRefusal.NOT_GRANTED);
    assertThat(otherServer.requests().get()).isZero();
  }

  @Test
  void anIpLiteralIsRefusedAtTheProxyEvenForALoopbackServer() {
    ExecutionResult result = lsRemote("http://127.0.0.1:" + otherServer.port() + "/repo.git");

    assertRefused(result, "127.0.0.1", otherServer.port(), EgressRefusal.IP_LITERAL);
    assertThat(otherServer.requests().get()).isZero();
  }

  /** The command ran and failed to connect; the proxy refused it, and the attestation says so twice. */
  private static void assertRefused(ExecutionResult result, String host, int port, String reason) {
    assertThat(result.status()).as(result.stderr().text()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(result.exitCode()).as(result.stderr().text()).isNotEqualTo(java.util.OptionalInt.of(0));
    assertThat(result.stdout().text()).isEmpty();
    Attestation attestation = result.attestation();
    assertThat(attestation.egress()).isNotEmpty().allSatisfy(connection -> {
      assertThat(connection.host()).isEqualTo(host);
      assertThat(connection.port()).isEqualTo(port);
      assertThat(connection.outcome()).isEqualTo(EgressConnection.Outcome.REFUSED);
      assertThat(connection.reason()).isEqualTo(reason);
      assertThat(connection.bytesSent()).isZero();
    });
    String destination = host + ":" + port;
    assertThat(attestation.violations()).isNotEmpty().allSatisfy(violation -> {
      assertThat(violation.path()).isEqualTo(destination);
      assertThat(violation.kind()).isEqualTo(reason);
      assertThat(violation.layer()).isEqualTo("operator");
      assertThat(violation.rule()).isEqualTo("egress.allow");
    });
  }
}
