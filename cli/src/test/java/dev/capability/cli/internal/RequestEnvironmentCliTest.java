package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --env NAME=VALUE} of {@code exec} and {@code check}: a name the policy lists in
 * {@code environment.request} reaches the real command (process backend, and Bubblewrap where it
 * can run), any other is denied, injectors are refused, and the attestation names it without its
 * value.
 */
class RequestEnvironmentCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final String VALUE = "hello from --env, with = and spaces";

  @TempDir Path tmp;
  private Path env;
  private Path policy;

  @BeforeEach
  void fixtures() throws Exception {
    env = Path.of("/usr/bin/env").toRealPath();
    policy = Files.createDirectories(tmp.resolve("etc")).resolve("policy.json");
    Files.writeString(policy, """
        {
          "version": 1,
          "network": "host",
          "environment": {"request": ["TCK_GREETING"]},
          "executables": {"env": {"path": "%s", "exact": [[]]}}
        }
        """.formatted(env));
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-r--r--"));
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  private CliRunner.Outcome exec(String backend, String... env) {
    String[] args = new String[7 + env.length];
    int i = 0;
    args[i++] = "exec";
    args[i++] = "--policy";
    args[i++] = policy.toString();
    args[i++] = "--backend";
    args[i++] = backend;
    for (String entry : env) {
      args[i++] = entry;
    }
    args[i++] = "--";
    args[i] = this.env.toString();
    return CliRunner.run(java.util.Arrays.copyOf(args, i + 1));
  }

  @Test
  void aListedVariableReachesTheCommandOnTheProcessBackend() {
    CliRunner.Outcome outcome = exec("process", "--env", "TCK_GREETING=" + VALUE);

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    assertThat(outcome.out().lines()).containsExactly("TCK_GREETING=" + VALUE);
  }

  @Test
  void aListedVariableReachesTheCommandInsideBubblewrap() {
    BWRAP.backend();

    CliRunner.Outcome outcome = exec("bwrap", "--env", "TCK_GREETING=" + VALUE);

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    assertThat(outcome.out().lines()).contains("TCK_GREETING=" + VALUE);
  }

  @Test
  void theAttestationNamesTheVariableAndNeverHoldsItsValue() throws Exception {
    CliRunner.Outcome outcome = CliRunner.run("exec", "--policy", policy.toString(), "--backend", "process", "--json",
        "--env", "TCK_GREETING=" + VALUE, "--", env.toString());

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    JsonNode attestation = JSON.readTree(outcome.out()).get("attestation");
    assertThat(attestation.get("environment").get("requested")).containsExactly(JSON.getNodeFactory().textNode("TCK_GREETING"));
    assertThat(attestation.toString()).doesNotContain("hello from --env");
  }

  @Test
  void aVariableThePolicyDoesNotListIsDeniedByExecAndCheck() throws Exception {
    CliRunner.Outcome exec = exec("process", "--env", "TCK_GREETING=x", "--env", "OTHER=secret-value");
    CliRunner.Outcome check = CliRunner.run("check", "--policy", policy.toString(), "--json", "--env", "OTHER=secret-value",
        "--", env.toString());

    assertThat(exec.exitCode()).isEqualTo(125);
    assertThat(exec.out()).isEmpty();
    assertThat(check.exitCode()).isEqualTo(1);
    JsonNode decision = JSON.readTree(check.out());
    assertThat(decision.get("code").asText()).isEqualTo("ENVIRONMENT_NOT_ALLOWED");
    assertThat(decision.get("layer").asText()).isEqualTo("operator");
    assertThat(check.out()).contains("OTHER").doesNotContain("secret-value");
  }

  @Test
  void anInjectorIsRefusedWhateverThePolicySays() throws Exception {
    CliRunner.Outcome check = CliRunner.run("check", "--policy", policy.toString(), "--json", "--env", "LD_PRELOAD=/tmp/x.so",
        "--", env.toString());

    assertThat(check.exitCode()).isEqualTo(1);
    assertThat(JSON.readTree(check.out()).get("code").asText()).isEqualTo("ENVIRONMENT_DENIED");
    assertThat(exec("process", "--env", "LD_PRELOAD=/tmp/x.so").exitCode()).isEqualTo(125);
  }

  @Test
  void aCheckWithAListedVariableIsAllowed() throws Exception {
    CliRunner.Outcome check = CliRunner.run("check", "--policy", policy.toString(), "--json", "--env", "TCK_GREETING=x",
        "--", env.toString());

    assertThat(check.exitCode()).as(check.err()).isZero();
    assertThat(JSON.readTree(check.out()).get("decision").asText()).isEqualTo("ALLOW");
  }

  @Test
  void anEntryWithoutEqualsSignIsAUsageError() {
    assertThat(exec("process", "--env", "TCK_GREETING").exitCode()).isEqualTo(2);
  }
}
