package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.cli.DumbHttpGitServer;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.IsolationCapability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capability exec} with a filtered-network policy, as an operator runs it: the CLI's own
 * egress gateway (the system resolver, so the granted name is {@code localhost}, allowed to resolve
 * to loopback by the policy), real bwrap, a real Git server on loopback. A refused destination
 * exits 123 with a line that names it, and the server it would have reached sees nothing.
 */
class FilteredEgressCliTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> HOST = Map.of("PATH", "/usr/bin:/bin", "LANG", "C.UTF-8");

  @TempDir Path tmp;
  private String head;
  private DumbHttpGitServer granted;
  private DumbHttpGitServer other;
  private Path policy;

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @BeforeEach
  void fixtures() throws IOException {
    if (!BWRAP.backend().capabilities().contains(IsolationCapability.FILTERED_EGRESS)) {
      Assumptions.abort("bwrap cannot supply FILTERED_EGRESS here: " + BWRAP.backend().diagnostics().get("FILTERED_EGRESS"));
    }
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path served = tmp.resolve("served");
    head = DumbHttpGitServer.bareRepository(served);
    granted = DumbHttpGitServer.serving(served);
    other = DumbHttpGitServer.serving(served);
    policy = Files.createDirectories(tmp.resolve("etc")).resolve("policy.json");
    Files.writeString(policy, """
        {
          "version": 1,
          "network": "filtered",
          "egress": {"allow": ["localhost:%d"], "allowPrivateAddresses": ["localhost"]},
          "environment": {"inherit": ["PATH", "LANG"]},
          "executables": {"git": {"name": "git", "exact": [["ls-remote", "%s"], ["ls-remote", "%s"]]}}
        }
        """.formatted(granted.port(), url(granted), url(other)));
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-r--r--"));
  }

  @AfterEach
  void stop() {
    if (granted != null) {
      granted.close();
      other.close();
    }
  }

  private static String url(DumbHttpGitServer server) {
    return "http://localhost:" + server.port() + "/repo.git";
  }

  private CliRunner.Outcome exec(String... more) {
    String[] args = new String[5 + more.length];
    args[0] = "exec";
    args[1] = "--policy";
    args[2] = policy.toString();
    args[3] = "--backend";
    args[4] = "bwrap";
    System.arraycopy(more, 0, args, 5, more.length);
    return CliRunner.run(HOST, "", args);
  }

  @Test
  void execReachesTheGrantedServerAndAttestsTheConnection() throws IOException {
    CliRunner.Outcome outcome = exec("--json", "--", "git", "ls-remote", url(granted));

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    JsonNode attestation = JSON.readTree(outcome.out()).get("attestation");
    assertThat(attestation.get("network").asText()).isEqualTo("filtered");
    assertThat(attestation.get("egress")).isNotEmpty().allSatisfy(connection -> {
      assertThat(connection.get("host").asText()).isEqualTo("localhost");
      assertThat(connection.get("outcome").asText()).isEqualTo("allowed");
    });
    assertThat(granted.requests()).isPositive();
    assertThat(outcome.out()).contains(head);
  }

  @Test
  void execOfAnUngrantedDestinationExits123NamingItAndTheServerSeesNothing() {
    CliRunner.Outcome outcome = exec("--", "git", "ls-remote", url(other));

    assertThat(outcome.exitCode()).as(outcome.err()).isEqualTo(ExitCodes.WRITE_VIOLATION);
    assertThat(outcome.err()).contains("capability: egress refused: ")
        .contains("refused by the egress proxy, first \"localhost:" + other.port() + "\" (EGRESS_NOT_GRANTED, operator egress.allow)")
        .contains("exiting 123")
        .doesNotContain("write violation");
    assertThat(other.requests()).isZero();
  }

  @Test
  void doctorSaysFilteredEgressIsAvailableUnderBwrapAndNotUnderProcess() throws IOException {
    JsonNode doctor = JSON.readTree(CliRunner.run("doctor", "--json").out());

    assertThat(doctor.get("egressGateway").get("installed").asBoolean()).isTrue();
    assertThat(doctor.get("egressGateway").get("id").asText()).isEqualTo("netty");
    for (JsonNode backend : doctor.get("backends")) {
      String id = backend.get("id").asText();
      if (id.equals("bwrap")) {
        assertThat(backend.get("filteredEgress").get("available").asBoolean()).isTrue();
        assertThat(backend.get("filteredEgress").get("reason").asText()).isEmpty();
      }
      if (id.equals("process")) {
        assertThat(backend.get("filteredEgress").get("available").asBoolean()).isFalse();
      }
    }
    assertThat(CliRunner.run("doctor").out()).contains("  filtered egress: available (egress gateway netty)");
  }
}
