package dev.capability.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.docker.DockerBackendProvider;
import dev.capability.backend.docker.LocalRuntimeImage;
import dev.capability.backend.tck.BackendGate;
import dev.capability.egress.EgressResolver;
import dev.capability.egress.NettyEgressGateway;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.BackendUnavailableException;
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
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A command policy with a network allowlist, for real: under bwrap and Docker with {@code "network":
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
  private static final BackendGate DOCKER;

  static {
    try {
      LocalRuntimeImage.ensure(LocalRuntimeImage.defaultTag());
    } catch (BackendUnavailableException e) {
      // The gate's probe names what is missing; the docker runs are then skipped or fail.
    }
    DOCKER = BackendGate.of(new DockerBackendProvider(), BackendConfig.defaults());
  }

  private static final Map<String, String> HOST = Map.of("PATH", "/usr/bin:/bin", "LANG", "C.UTF-8");
  private static final EgressResolver TEST_NAMES = host -> switch (host) {
    case "git.test", "other.test" -> List.of(InetAddress.getLoopbackAddress());
    default -> List.of();
  };

  @TempDir Path tmp;
  private String head;
  private DumbHttpGitServer gitServer;
  private DumbHttpGitServer otherServer;

  @AfterAll
  static void close() {
    BWRAP.close();
    DOCKER.close();
  }

  @BeforeEach
  void servers() throws IOException {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path served = tmp.resolve("served");
    head = DumbHttpGitServer.bareRepository(served);
    gitServer = DumbHttpGitServer.serving(served);
    otherServer = DumbHttpGitServer.serving(served);
  }

  @AfterEach
  void stop() {
    gitServer.close();
    otherServer.close();
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

  /** The backend with filtered egress on this machine; skipped (or failed, when backends are required) otherwise. */
  private static ExecutionBackend filtering(String id) {
    ExecutionBackend backend = (id.equals("bwrap") ? BWRAP : DOCKER).backend();
    if (!backend.capabilities().contains(IsolationCapability.FILTERED_EGRESS)) {
      String reason = id + " cannot supply FILTERED_EGRESS here: "
          + backend.diagnostics().getOrDefault(IsolationCapability.FILTERED_EGRESS.name(), "no reason given");
      if ("1".equals(System.getenv(BackendGate.REQUIRE_VARIABLE))) {
        fail(reason + " (" + BackendGate.REQUIRE_VARIABLE + "=1 requires every backend)");
      }
      Assumptions.abort(reason);
    }
    return backend;
  }

  private ExecutionResult lsRemote(String backend, String url) {
    // Never closed: closing a kernel closes its backends, which the gates close.
    CommandKernel kernel = CommandKernel.builder(policy())
        .discoverBackends(false).backend(filtering(backend)).egressGateway(new NettyEgressGateway(TEST_NAMES))
        .hostEnvironment(HOST).workingDirectory(tmp).build();
    return kernel.execute(ExecutionRequest.argv("git", "ls-remote", url).backend(backend).build());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"bwrap", "docker"})
  void gitReachesTheGrantedServerThroughTheProxyAndTheAttestationRecordsTheConnection(String backend) {
    ExecutionResult result = lsRemote(backend, "http://git.test:" + gitServer.port() + "/repo.git");

    assertThat(result.status()).as(result.stderr().text()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(result.exitCode()).as(result.stderr().text()).hasValue(0);
    assertThat(result.stdout().text()).contains(head + "\tHEAD", head + "\trefs/heads/main");
    assertThat(gitServer.requests()).isPositive();
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

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"bwrap", "docker"})
  void anotherNameForTheSameServerIsRefusedAtTheProxyAndTheServerSeesNothing(String backend) {
    ExecutionResult result = lsRemote(backend, "http://other.test:" + gitServer.port() + "/repo.git");

    assertRefused(result, "other.test", gitServer.port(), EgressRefusal.NOT_GRANTED);
    assertThat(gitServer.requests()).isZero();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"bwrap", "docker"})
  void anotherPortOfTheGrantedNameIsRefusedAtTheProxyAndThatServerSeesNothing(String backend) {
    ExecutionResult result = lsRemote(backend, "http://git.test:" + otherServer.port() + "/repo.git");

    assertRefused(result, "git.test", otherServer.port(), EgressRefusal.NOT_GRANTED);
    assertThat(otherServer.requests()).isZero();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"bwrap", "docker"})
  void anIpLiteralIsRefusedAtTheProxyEvenForALoopbackServer(String backend) {
    ExecutionResult result = lsRemote(backend, "http://127.0.0.1:" + otherServer.port() + "/repo.git");

    assertRefused(result, "127.0.0.1", otherServer.port(), EgressRefusal.IP_LITERAL);
    assertThat(otherServer.requests()).isZero();
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
