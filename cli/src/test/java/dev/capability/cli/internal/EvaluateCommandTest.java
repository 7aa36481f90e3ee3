package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.testing.Ownership;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capability evaluate} on a real repository through the real kernel: the three commits
 * pass, fail and time out, the reports and the summary say so, the worktrees are gone and the
 * main tree is as it was; a configuration that cannot be trusted or read is refused before
 * anything runs.
 */
class EvaluateCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());

  @TempDir Path tmp;
  private EvaluationFixture fixture;

  @BeforeEach
  void fixture() throws IOException {
    fixture = EvaluationFixture.create(tmp);
  }

  @AfterEach
  void noLeftovers() {
    LiveProcesses.killAll(fixture.sleep);
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @Test
  void passFailAndTimeoutAreReportedAndTheMainTreeIsUntouched() throws Exception {
    assertThreeCommitsReported(fixture.threeCommits(), "process");
  }

  @Test
  void underBubblewrapPassFailAndTimeoutAreReportedAndTheMainTreeIsUntouched() throws Exception {
    BWRAP.backend();
    // The sandbox runs as another uid when the tests run as root: it must be able to read the worktrees.
    Ownership.readableByEveryone(tmp);

    assertThreeCommitsReported(fixture.threeCommits("bwrap"), "bwrap");
  }

  private void assertThreeCommitsReported(Path config, String backend) throws Exception {
    List<String> before = fixture.mainTreeState();

    CliRunner.Outcome outcome = CliRunner.run(EvaluationFixture.environment(), "", "evaluate", config.toString(), "--json");

    assertThat(outcome.exitCode()).as(outcome.err()).isEqualTo(ExitCodes.DENIED);
    JsonNode summary = JSON.readTree(outcome.out());
    assertThat(summary.get("allPassed").asBoolean()).isFalse();
    assertThat(summary.get("interrupted").asBoolean()).isFalse();
    assertThat(outcomes(summary)).containsExactly("pass PASSED", "fail FAILED", "timeout TIMED_OUT");
    JsonNode fail = summary.get("candidates").get(1).get("cells").get(0);
    assertThat(fail.get("exitCode").asInt()).isEqualTo(1);
    assertThat(fail.get("status").asText()).isEqualTo("COMPLETED");
    assertThat(summary.get("candidates").get(2).get("cells").get(0).get("status").asText()).isEqualTo("TIMED_OUT");
    assertThat(summary.get("candidates").get(0).get("commit").asText())
        .isEqualTo(dev.capability.testing.Git.git(fixture.repository, "rev-parse", "main~2").strip());
    Path html = Path.of(summary.get("reportHtml").asText());
    Path json = Path.of(summary.get("reportJson").asText());
    assertThat(html).isRegularFile().startsWith(fixture.output);
    JsonNode report = JSON.readTree(json.toFile());
    assertThat(report.get("evaluationId").asText()).isEqualTo(summary.get("evaluationId").asText());
    for (JsonNode candidate : report.get("candidates")) {
      assertThat(candidate.get("results").get(0).get("attestation").get("backend").get("id").asText())
          .as("the backend %s ran", candidate.get("name")).isEqualTo(backend);
    }
    assertThat(outcome.err()).as("no progress under --json").isEmpty();

    assertThat(fixture.leftWorktrees()).isEmpty();
    assertThat(fixture.gitWorktrees()).containsExactly("worktree " + fixture.repository);
    assertThat(fixture.mainTreeState()).isEqualTo(before);
    assertThat(LiveProcesses.running(fixture.sleep)).as("the timed-out sleep was ended").isEmpty();
  }

  @Test
  void thePlainOutputNamesTheReportsAndProgressNamesCandidateCommitCommandOutcomeAndDuration() throws Exception {
    Path config = fixture.config("two.json", """
        [{"name": "pass", "ref": "main~2"}, {"name": "fail", "ref": "main~1"}]""",
        "[{\"name\": \"check\", \"command\": \"sh check.sh\"}]");
    String passCommit = dev.capability.testing.Git.git(fixture.repository, "rev-parse", "main~2").strip();

    CliRunner.Outcome outcome = CliRunner.run(EvaluationFixture.environment(), "", "evaluate", config.toString());

    assertThat(outcome.exitCode()).as(outcome.err()).isEqualTo(ExitCodes.DENIED);
    assertThat(outcome.out())
        .contains("pass " + passCommit.substring(0, 12) + ": check PASSED")
        .contains("fail ")
        .contains("check FAILED")
        .contains("report: " + fixture.output.resolve("report.html"))
        .contains("report (JSON): " + fixture.output.resolve("report.json"));
    assertThat(outcome.err().lines().toList())
        .anyMatch(line -> line.matches("capability: evaluate: pass " + passCommit.substring(0, 12) + " check: started"))
        .anyMatch(line -> line.matches("capability: evaluate: pass " + passCommit.substring(0, 12) + " check: PASSED \\(exit 0\\) in [0-9.]+s"))
        .anyMatch(line -> line.matches("capability: evaluate: fail [0-9a-f]{12} check: FAILED \\(exit 1\\) in [0-9.]+s"));
    assertThat(fixture.leftWorktrees()).isEmpty();
  }

  @Test
  void theEvaluationAndEveryExecutionAreRecordedInTheRepositorysLedgerUnlessNoLedger() throws Exception {
    Path config = fixture.config("two.json", """
        [{"name": "pass", "ref": "main~2"}, {"name": "fail", "ref": "main~1"}]""",
        "[{\"name\": \"check\", \"argv\": [\"sh\", \"check.sh\"]}]");

    CliRunner.Outcome unrecorded = CliRunner.run(EvaluationFixture.environment(), "", "evaluate", "--no-ledger", "--json", config.toString());

    assertThat(unrecorded.exitCode()).as(unrecorded.out()).isEqualTo(ExitCodes.DENIED);
    assertThat(fixture.repository.resolve(".capability")).doesNotExist();

    CliRunner.Outcome outcome = CliRunner.run(EvaluationFixture.environment(), "", "evaluate", "--json", config.toString());

    assertThat(outcome.exitCode()).as(outcome.out()).isEqualTo(ExitCodes.DENIED);
    String evaluationId = JSON.readTree(outcome.out()).get("evaluationId").asText();
    String repo = fixture.repository.toString();
    JsonNode evaluations = JSON.readTree(CliRunner.run("ledger", "list", "--repo", repo, "--kind", "evaluation", "--json").out()).get("records");
    assertThat(evaluations).hasSize(1);
    assertThat(evaluations.get(0).get("status").asText()).isEqualTo("FAILED");
    JsonNode recorded = JSON.readTree(CliRunner.run("ledger", "show", evaluations.get(0).get("seq").asText(), "--repo", repo, "--json").out());
    assertThat(recorded.get("body").get("evaluationId").asText()).isEqualTo(evaluationId);
    JsonNode executions = JSON.readTree(CliRunner.run("ledger", "list", "--repo", repo, "--kind", "execution", "--json").out()).get("records");
    assertThat(executions).as("one execution per cell").hasSize(2);
    assertThat(CliRunner.run("ledger", "verify", "--repo", repo).exitCode()).isEqualTo(ExitCodes.OK);
  }

  @Test
  void everyCommandPassingExitsZero() throws Exception {
    Path config = fixture.config("pass.json", "[{\"name\": \"pass\", \"ref\": \"main~2\"}]", "[{\"argv\": [\"sh\", \"check.sh\"]}]");

    CliRunner.Outcome outcome = CliRunner.run(EvaluationFixture.environment(), "", "evaluate", "--json", config.toString());

    assertThat(outcome.exitCode()).as(outcome.err() + outcome.out()).isEqualTo(ExitCodes.OK);
    assertThat(JSON.readTree(outcome.out()).get("allPassed").asBoolean()).isTrue();
  }

  @Test
  void aMissingConfigurationIsRefusedNamingIt() {
    Path missing = fixture.etc.resolve("missing.json");

    CliRunner.Outcome outcome = CliRunner.run(EvaluationFixture.environment(), "", "evaluate", missing.toString());

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(outcome.err()).startsWith("capability: EVALUATION_CONFIG_").contains(missing.toString());
    assertThat(fixture.output).doesNotExist();
  }

  @Test
  void aConfigurationInsideTheRepositoryIsRefusedBeforeAnythingRuns() throws Exception {
    Path inside = fixture.config(fixture.repository.resolve("evaluation.json"), "[{\"ref\": \"main\"}]", "[{\"argv\": [\"sh\", \"check.sh\"]}]");

    CliRunner.Outcome outcome = CliRunner.run(EvaluationFixture.environment(), "", "evaluate", "--json", inside.toString());

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    JsonNode error = JSON.readTree(outcome.out()).get("error");
    assertThat(error.get("code").asText()).isEqualTo("EVALUATION_CONFIG_UNTRUSTED");
    assertThat(error.get("message").asText()).contains(inside.toString()).contains("repository");
    assertThat(fixture.output).doesNotExist();
  }

  @Test
  void aGroupWritableConfigurationIsRefusedBeforeAnythingRuns() throws Exception {
    Path config = fixture.threeCommits();
    Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-rw----"));

    CliRunner.Outcome outcome = CliRunner.run(EvaluationFixture.environment(), "", "evaluate", config.toString());

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(outcome.err()).startsWith("capability: EVALUATION_CONFIG_UNTRUSTED: ").contains(config.toString()).contains("writable");
    assertThat(fixture.output).doesNotExist();
  }

  @Test
  void aSymlinkedConfigurationIsRefusedBeforeAnythingRuns() throws Exception {
    Path config = fixture.threeCommits();
    Path link = Files.createSymbolicLink(fixture.etc.resolve("link.json"), config);

    CliRunner.Outcome outcome = CliRunner.run(EvaluationFixture.environment(), "", "evaluate", link.toString());

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(outcome.err()).startsWith("capability: EVALUATION_CONFIG_UNTRUSTED: ").contains(link.toString());
    assertThat(fixture.output).doesNotExist();
  }

  @Test
  void aCommandWithAShellOperatorIsRefusedAtLoad() throws Exception {
    Path config = fixture.config("shell.json", "[{\"ref\": \"main\"}]", "[{\"command\": \"sh check.sh && touch pwned\"}]");

    CliRunner.Outcome outcome = CliRunner.run(EvaluationFixture.environment(), "", "evaluate", config.toString());

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(outcome.err()).startsWith("capability: EVALUATION_CONFIG_INVALID: ").contains(config.toString()).contains("/commands/0");
    assertThat(fixture.output).doesNotExist();
  }

  @Test
  void aParallelismAboveTheProcessorsOrBelowOneIsAUsageError() throws Exception {
    Path config = fixture.threeCommits();
    int above = Runtime.getRuntime().availableProcessors() + 1;

    CliRunner.Outcome outcome = CliRunner.run(EvaluationFixture.environment(), "", "evaluate", config.toString(), "--parallel", String.valueOf(above));
    CliRunner.Outcome zeroAndNoConfig = CliRunner.run(EvaluationFixture.environment(), "", "evaluate",
        fixture.etc.resolve("missing.json").toString(), "--parallel", "0");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(outcome.err()).startsWith("capability: EVALUATION_PARALLELISM_INVALID: --parallel ")
        .contains(String.valueOf(above)).contains("processors");
    assertThat(zeroAndNoConfig.exitCode()).as("checked before the configuration is read").isEqualTo(ExitCodes.USAGE);
    assertThat(fixture.output).doesNotExist();
  }

  @Test
  void helpDescribesTheCommandAndItsOptions() {
    CliRunner.Outcome outcome = CliRunner.run("evaluate", "--help");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(outcome.out()).contains("capability evaluate").contains("CONFIG").contains("--parallel").contains("--json").contains("--no-ledger");
  }

  private static List<String> outcomes(JsonNode summary) {
    List<String> outcomes = new ArrayList<>();
    for (JsonNode candidate : summary.get("candidates")) {
      outcomes.add(candidate.get("name").asText() + " " + candidate.get("cells").get(0).get("outcome").asText());
    }
    return outcomes;
  }
}
