package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.core.BackendStatus;
import dev.capability.kernel.core.EgressGatewayStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI contract of docs/cli.md: shapes of the JSON and the exit codes, with real processes. */
class CapabilityCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private Path tool;
  private Path policy;

  @BeforeEach
  void fixtures() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    tool = bin.resolve("tool");
    Files.writeString(tool, "#!/bin/sh\nprintf 'out:%s\\n' \"$*\"\nprintf 'err\\n' >&2\nexit \"${1:-0}\"\n");
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    tool = tool.toRealPath();
    Path sleeper = bin.resolve("sleeper");
    Files.writeString(sleeper, "#!/bin/sh\nsleep 30\n");
    Files.setPosixFilePermissions(sleeper, PosixFilePermissions.fromString("rwxr-xr-x"));
    policy = Files.createDirectories(tmp.resolve("etc")).resolve("policy.json");
    Files.writeString(policy, """
        {
          "version": 1,
          "network": "host",
          "allowUnisolatedFallback": true,
          "executables": {
            "tool": {"path": "%s", "exact": [["0"], ["7"], ["0", "two words"]]},
            "sleeper": {"path": "%s", "exact": [[]]}
          }
        }
        """.formatted(tool, sleeper.toRealPath()));
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-r--r--"));
  }

  private static JsonNode json(CliRunner.Outcome outcome) throws Exception {
    return JSON.readTree(outcome.out());
  }

  @Test
  void parsePrintsTheArgvAsJson() throws Exception {
    CliRunner.Outcome outcome = CliRunner.run("parse", "--json", "git 'a b' \"c\\\"d\"");

    assertThat(outcome.exitCode()).isZero();
    assertThat(json(outcome).get("argv")).containsExactly(
        JSON.getNodeFactory().textNode("git"), JSON.getNodeFactory().textNode("a b"), JSON.getNodeFactory().textNode("c\"d"));
  }

  @Test
  void parseRefusesAPipeWithItsConstructAndOffset() throws Exception {
    CliRunner.Outcome outcome = CliRunner.run("parse", "--json", "ls | sh");

    assertThat(outcome.exitCode()).isEqualTo(1);
    JsonNode error = json(outcome).get("error");
    assertThat(error.get("code").asText()).isEqualTo("SHELL_SYNTAX");
    assertThat(error.get("offset").asInt()).isEqualTo(3);
    assertThat(error.get("construct").asText()).isNotBlank();
  }

  @Test
  void parseReadsStdinByteForByteSoATrailingNewlineIsRefused() throws Exception {
    assertThat(CliRunner.run(Map.of(), "git status", "parse", "--json").exitCode()).isZero();
    CliRunner.Outcome withNewline = CliRunner.run(Map.of(), "git status\n", "parse", "--json");

    assertThat(withNewline.exitCode()).isEqualTo(1);
    assertThat(json(withNewline).get("error").get("offset").asInt()).isEqualTo(10);
  }

  @Test
  void checkAllowsWithTheExecutableAndBackend() throws Exception {
    CliRunner.Outcome outcome = CliRunner.run("check", "--policy", policy.toString(), "--json", "--", tool.toString(), "7");

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    JsonNode result = json(outcome);
    assertThat(result.get("decision").asText()).isEqualTo("ALLOW");
    assertThat(result.get("executable").get("path").asText()).isEqualTo(tool.toString());
    assertThat(result.get("executable").get("sha256").asText()).hasSize(64);
    assertThat(result.get("backend").asText()).isNotBlank();
  }

  @Test
  void checkDeniesNamingLayerRuleAndCode() throws Exception {
    CliRunner.Outcome outcome = CliRunner.run("check", "--policy", policy.toString(), "--json", "--", tool.toString(), "8");

    assertThat(outcome.exitCode()).isEqualTo(1);
    JsonNode result = json(outcome);
    assertThat(result.get("decision").asText()).isEqualTo("DENY");
    assertThat(result.get("layer").asText()).isEqualTo("operator");
    assertThat(result.get("code").asText()).isNotBlank();
    assertThat(result.get("rule").asText()).startsWith("executables.tool");
  }

  @Test
  void checkReadsACommandStringFromStdin() throws Exception {
    CliRunner.Outcome outcome = CliRunner.run(Map.of(), tool + " 0 'two words'", "check", "--policy", policy.toString(), "--json");

    assertThat(outcome.exitCode()).as(outcome.out()).isZero();
  }

  @Test
  void checkJsonIsByteIdenticalAcrossJvmsInTheDocumentedKeyOrder() throws Exception {
    // Map.of orders keys by a salt chosen per JVM: only separate JVMs show an order that moves.
    List<String> runs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      runs.add(cliInChildJvm("check", "--policy", policy.toString(), "--json", "--", tool.toString(), "7"));
    }

    assertThat(runs).allSatisfy(run -> assertThat(run).isEqualTo(runs.get(0)));
    JsonNode result = JSON.readTree(runs.get(0));
    assertThat(result.fieldNames()).toIterable()
        .containsExactly("decision", "argv", "code", "layer", "rule", "message", "executable", "backend");
    assertThat(result.get("executable").fieldNames()).toIterable().containsExactly("path", "sha256");
  }

  /** The CLI's stdout in a JVM of its own; the test fails on a non-zero exit. */
  private String cliInChildJvm(String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "dev.capability.cli.Main"));
    argv.addAll(List.of(args));
    Path out = Files.createTempFile(tmp, "out", ".json");
    Path err = Files.createTempFile(tmp, "err", ".txt");
    Process cli = new ProcessBuilder(argv).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(cli.waitFor(120, TimeUnit.SECONDS)).as("the CLI ended").isTrue();
    assertThat(cli.exitValue()).as(() -> readString(err)).isZero();
    return Files.readString(out);
  }

  private static String readString(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return e.toString();
    }
  }

  @Test
  void execPassesOutputThroughAndExitsWithTheCommandsCode() {
    CliRunner.Outcome outcome = CliRunner.run("exec", "--policy", policy.toString(), "--", tool.toString(), "7");

    assertThat(outcome.exitCode()).isEqualTo(7);
    assertThat(outcome.out()).isEqualTo("out:7\n");
    // The command's stderr first, then one line naming the backend (issue 13) and why it was chosen (issue 15).
    assertThat(outcome.err()).matches("err\ncapability: ran under the \\S+ backend.* \\(.+\\); chosen: .+\n");
  }

  @Test
  void execNamesTheBackendThatRanOnStderrOnlyAndNotUnderQuietOrJson() {
    CliRunner.Outcome process = CliRunner.run("exec", "--policy", policy.toString(), "--backend", "process", "--", tool.toString(), "0");
    CliRunner.Outcome quiet = CliRunner.run("exec", "--quiet", "--policy", policy.toString(), "--backend", "process", "--",
        tool.toString(), "0");
    CliRunner.Outcome denied = CliRunner.run("exec", "--policy", policy.toString(), "--", tool.toString(), "8");

    assertThat(process.out()).isEqualTo("out:0\n");
    assertThat(process.err()).startsWith("err\ncapability: ran under the process backend, which is not a sandbox (")
        .endsWith("); named by --backend\n");
    assertThat(quiet.err()).isEqualTo("err\n");
    assertThat(denied.err()).doesNotContain("ran under");
  }

  @Test
  void execWithJsonPrintsTheResultAndItsAttestation() throws Exception {
    CliRunner.Outcome outcome = CliRunner.run("exec", "--policy", policy.toString(), "--json", "--command", tool + " 0 'two words'");

    assertThat(outcome.exitCode()).isZero();
    JsonNode result = json(outcome);
    assertThat(result.get("status").asText()).isEqualTo("COMPLETED");
    assertThat(result.get("stdout").asText()).isEqualTo("out:0 two words\n");
    JsonNode attestation = result.get("attestation");
    assertThat(attestation.get("executable").get("path").asText()).isEqualTo(tool.toString());
    assertThat(attestation.get("policySource").asText()).isEqualTo(policy.toRealPath().toString());
    assertThat(attestation.get("policyHash").asText()).hasSize(64);
  }

  @Test
  void execExitCodesFollowTheTable() {
    assertThat(CliRunner.run("exec", "--policy", policy.toString(), "--", tool.toString(), "8").exitCode())
        .as("denied").isEqualTo(125);
    assertThat(CliRunner.run("exec", "--policy", policy.toString(), "--command", "a | b").exitCode())
        .as("shell syntax").isEqualTo(125);
    assertThat(CliRunner.run("exec", "--policy", policy.toString(), "--timeout", "200ms", "--",
        tmp.resolve("bin/sleeper").toString()).exitCode()).as("timeout").isEqualTo(124);
    assertThat(CliRunner.run("exec", "--policy", policy.toString(), "--backend", "no-such", "--", tool.toString(), "0").exitCode())
        .as("unknown backend").isEqualTo(126);
    assertThat(CliRunner.run("exec", "--", tool.toString(), "0").exitCode())
        .as("no policy").isEqualTo(125);
    assertThat(CliRunner.run("exec", "--policy", policy.toString()).exitCode())
        .as("neither argv nor --command").isEqualTo(2);
  }

  @Test
  void aGroupWritablePolicyFileRefusesToStart() throws Exception {
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-rw-r--"));

    CliRunner.Outcome check = CliRunner.run("check", "--policy", policy.toString(), "--json", "--", tool.toString(), "0");
    CliRunner.Outcome exec = CliRunner.run("exec", "--policy", policy.toString(), "--", tool.toString(), "0");

    assertThat(check.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(json(check).get("error").get("code").asText()).isEqualTo("POLICY_WRITABLE_BY_OTHERS");
    assertThat(exec.exitCode()).isEqualTo(125);
    assertThat(exec.out()).doesNotContain("out:");
  }

  @Test
  void thePolicyCanComeFromTheEnvironment() {
    CliRunner.Outcome outcome = CliRunner.run(
        Map.of("CAPABILITY_EXECUTION_POLICY_PATH", policy.toString()), "", "exec", "--", tool.toString(), "0");

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    assertThat(outcome.out()).isEqualTo("out:0\n");
  }

  @Test
  void doctorListsTheProcessBackendAndSaysItIsNotASandbox() throws Exception {
    CliRunner.Outcome outcome = CliRunner.run("doctor", "--json");

    assertThat(outcome.exitCode()).isZero();
    JsonNode process = null;
    for (JsonNode backend : json(outcome).get("backends")) {
      if (backend.get("id").asText().equals("process")) {
        process = backend;
      }
    }
    assertThat(process).isNotNull();
    assertThat(process.get("available").asBoolean()).isTrue();
    assertThat(process.get("sandbox").asBoolean()).isFalse();
    assertThat(process.get("capabilities").toString()).doesNotContain("NAMESPACE");
    JsonNode bounds = process.get("bounds");
    assertThat(bounds.get("timeout").asBoolean()).isTrue();
    assertThat(bounds.get("output").asBoolean()).isTrue();
    assertThat(bounds.get("tree").asBoolean()).isFalse();
    assertThat(bounds.get("hostExit").asBoolean()).isFalse();
    assertThat(bounds.get("memory").asBoolean()).isFalse();
    assertThat(bounds.get("fileSize").asBoolean()).isTrue();
    assertThat(bounds.get("writeBudget").asBoolean()).isTrue();
    assertThat(process.get("diagnostics").get("TERMINATION_ON_HOST_EXIT").asText()).contains("not provided");
    assertThat(process.get("filteredEgress").get("available").asBoolean()).isFalse();
    assertThat(process.get("filteredEgress").get("reason").asText()).contains("the backend does not advertise FILTERED_EGRESS");
    JsonNode gateway = json(outcome).get("egressGateway");
    assertThat(gateway.get("installed").asBoolean()).isEqualTo(gateway.get("reason").asText().isEmpty());
  }

  @Test
  void doctorSaysPerBackendWhetherFilteredEgressIsAvailableAndEveryReasonWhyNot() {
    BackendStatus filtering = new BackendStatus("bwrap", true, "available",
        Set.of(IsolationCapability.NETWORK_NAMESPACE, IsolationCapability.FILTERED_EGRESS), Map.of());
    BackendStatus plain = new BackendStatus("docker", true, "available", Set.of(IsolationCapability.NETWORK_NAMESPACE),
        Map.of("FILTERED_EGRESS", "no C compiler to build the relay"));
    BackendStatus down = new BackendStatus("docker", false, "no daemon", Set.of(), Map.of());
    EgressGatewayStatus installed = new EgressGatewayStatus("netty", "");
    EgressGatewayStatus absent = new EgressGatewayStatus(null, "no egress gateway is installed");

    assertThat(DoctorCommand.filteredEgressMissing(filtering, installed)).isEmpty();
    assertThat(DoctorCommand.filteredEgressMissing(filtering, absent)).containsExactly("no egress gateway is installed");
    assertThat(DoctorCommand.filteredEgressMissing(plain, absent)).containsExactly(
        "the backend does not advertise FILTERED_EGRESS (no C compiler to build the relay)", "no egress gateway is installed");
    assertThat(DoctorCommand.filteredEgressMissing(down, installed)).containsExactly("the backend is unavailable");
    assertThat(CliRunner.run("doctor").out())
        .containsPattern("(?m)^  filtered egress: unavailable: the backend does not advertise FILTERED_EGRESS");
  }

  @Test
  void doctorSaysInPlainTextWhichBoundsEachBackendEnforces() {
    CliRunner.Outcome outcome = CliRunner.run("doctor");

    assertThat(outcome.exitCode()).isZero();
    assertThat(outcome.out()).contains("process: available, not a sandbox: runs only when named with --backend")
        .containsPattern("(?m)^  bounds enforced: timeout, output(, session ends on timeout)?, file size, write budget$")
        .containsPattern("(?m)^  bounds not enforced: .*whole tree ends on timeout, tree ends when the host JVM dies, memory, "
            + "processes, cpu, /tmp size$");
  }

  @Test
  void execAndCheckWithARepositoryRecordIntoItsLedgerUnlessToldNotTo() throws Exception {
    // The sandbox runs as an unprivileged uid when these tests run as root: it must reach the repository.
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path repo = Files.createDirectories(tmp.resolve("repo"));
    Path other = Files.createDirectories(tmp.resolve("other"));

    assertThat(CliRunner.run("exec", "--policy", policy.toString(), "--repo", repo.toString(), "--", tool.toString(), "7")
        .exitCode()).isEqualTo(7);
    assertThat(CliRunner.run("check", "--policy", policy.toString(), "--repo", repo.toString(), "--", tool.toString(), "8")
        .exitCode()).isEqualTo(1);
    assertThat(CliRunner.run("exec", "--policy", policy.toString(), "--repo", other.toString(), "--no-ledger", "--",
        tool.toString(), "0").exitCode()).isZero();

    JsonNode records = JSON.readTree(CliRunner.run("ledger", "list", "--repo", repo.toString(), "--json").out()).get("records");
    assertThat(records).extracting(r -> r.get("kind").asText()).contains("execution", "decision");
    assertThat(CliRunner.run("ledger", "verify", "--repo", repo.toString()).exitCode()).isZero();
    assertThat(other.resolve(".capability")).doesNotExist();
  }

  @Test
  void anExecWhoseLedgerRefusesShowsTheCommandsOutputThenTheErrorAndExits125() throws Exception {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path repo = Files.createDirectories(tmp.resolve("repo"));
    Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
    // The ledger refuses a .capability that is a symbolic link; the kernel's record of the run fails.
    Files.createSymbolicLink(repo.resolve(".capability"), elsewhere);

    CliRunner.Outcome outcome = CliRunner.run("exec", "--policy", policy.toString(), "--repo", repo.toString(), "--backend", "process",
        "--", tool.toString(), "7");

    assertThat(outcome.exitCode()).isEqualTo(125);
    assertThat(outcome.out()).isEqualTo("out:7\n");
    assertThat(outcome.err()).contains("EVIDENCE_NOT_RECORDED").contains("symbolic link");
    try (var left = Files.list(elsewhere)) {
      assertThat(left).as("nothing was written through the link").isEmpty();
    }
  }
}
