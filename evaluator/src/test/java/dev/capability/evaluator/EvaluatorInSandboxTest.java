package dev.capability.evaluator;

import static dev.capability.evaluator.EvaluationFixture.TEST_COMMAND;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.store.EvaluationRecord;
import dev.capability.testing.Git;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Evaluations of a real repository under real bwrap: a test that passes, fails and never ends on
 * three commits, each in its own worktree; the main tree, index and refs untouched; worktrees gone
 * afterwards; a command the policy refuses as a denied cell; the HTML report escaped.
 */
class EvaluatorInSandboxTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path tmp;
  private EvaluationFixture fixture;

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @BeforeEach
  void setUp() throws Exception {
    BWRAP.backend();
    fixture = new EvaluationFixture(tmp);
  }

  /** Every call the listener heard, as one line each. */
  private static final class Heard implements EvaluationProgress {
    final List<String> lines = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void candidateStarted(Candidate candidate, String commit) {
      lines.add("start " + candidate.name() + " " + commit);
    }

    @Override
    public void commandStarted(Candidate candidate, EvaluationCommand command) {
      lines.add("run " + candidate.name() + " " + command.name());
    }

    @Override
    public void commandFinished(Candidate candidate, EvaluationCommand command, CellResult result) {
      lines.add("done " + candidate.name() + " " + command.name() + " " + result.outcome());
    }

    @Override
    public void candidateFinished(CandidateResult result) {
      lines.add("end " + result.candidate().name() + " " + result.passed());
    }
  }

  @Test
  void threeCommitsPassFailAndTimeOutEachInItsOwnWorktreeAndTheMainTreeIsUntouched() throws Exception {
    List<Object> before = fixture.mainTreeState();
    EvaluationConfig config = EvaluationConfigs.load(fixture.operatorFile("evaluation.json", fixture.config(TEST_COMMAND, "")));
    Heard heard = new Heard();
    List<EvaluationRecord> recorded = new ArrayList<>();

    EvaluationReport report = Evaluator.builder(config).kernel(EvaluationFixture.bwrap()).progress(heard)
        .store(r -> {
          recorded.add(r);
          return recorded.size();
        })
        .build().run();

    CellResult pass = report.candidate("pass").cell("test");
    CellResult fail = report.candidate("fail").cell("test");
    CellResult hang = report.candidate("hang").cell("test");
    assertThat(pass.outcome()).as(pass.message() + pass.failureExcerpt()).isEqualTo(CellOutcome.PASSED);
    assertThat(pass.exitCode()).isZero();
    assertThat(fail.outcome()).isEqualTo(CellOutcome.FAILED);
    assertThat(fail.status()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(fail.exitCode()).isEqualTo(1);
    assertThat(fail.failureExcerpt()).contains("expected 5 but was -1");
    assertThat(hang.outcome()).isEqualTo(CellOutcome.TIMED_OUT);
    assertThat(hang.status()).isEqualTo(ExecutionStatus.TIMED_OUT);
    assertThat(report.candidates()).extracting(CandidateResult::commit)
        .containsExactly(fixture.passCommit, fixture.failCommit, fixture.hangCommit);
    assertThat(report.allPassed()).isFalse();
    assertThat(pass.attestation()).isNotNull();
    assertThat(pass.attestation().get("status")).isEqualTo("COMPLETED");
    assertThat(Files.readString(fixture.output.resolve(pass.stdoutLog()))).isEqualTo("all good\n");
    assertThat(Files.readString(fixture.output.resolve(fail.stderrLog()))).contains("expected 5 but was -1");

    JsonNode json = MAPPER.readTree(report.reportJson().toFile());
    assertThat(json.get("evaluationId").asText()).isEqualTo(report.evaluationId());
    assertThat(json.get("allPassed").asBoolean()).isFalse();
    assertThat(json.findValues("outcome")).extracting(JsonNode::asText).containsExactly("PASSED", "FAILED", "TIMED_OUT");
    assertThat(json.at("/candidates/2/commit").asText()).isEqualTo(fixture.hangCommit);
    assertThat(json.at("/candidates/1/results/0/stderrSha256").asText()).isEqualTo(fail.stderrSha256());
    String html = Files.readString(report.reportHtml());
    assertThat(html).contains("<td class=\"passed\"", "<td class=\"failed\"", "<td class=\"timed_out\"",
        "href=\"" + fail.stderrLog() + "\"", "expected 5 but was -1").doesNotContainIgnoringCase("<script");

    assertThat(recorded).singleElement().satisfies(r -> {
      assertThat(r.evaluationId()).isEqualTo(report.evaluationId());
      assertThat(r.allPassed()).isFalse();
      assertThat(r.configSha256()).isEqualTo(config.sha256());
    });
    assertThat(heard.lines).containsExactly(
        "start pass " + fixture.passCommit, "run pass test", "done pass test PASSED", "end pass true",
        "start fail " + fixture.failCommit, "run fail test", "done fail test FAILED", "end fail false",
        "start hang " + fixture.hangCommit, "run hang test", "done hang test TIMED_OUT", "end hang false");
    assertThat(fixture.output.resolve("worktrees")).isEmptyDirectory();
    assertThat(fixture.mainTreeState()).isEqualTo(before);
  }

  @Test
  void aCommandThePolicyDoesNotAllowIsADeniedCellAndTheOthersStillRunComparedWithTheBaseline() throws Exception {
    String commands = "{\"argv\": [\"cat\", \"status.txt\"]}, {\"name\": \"status\", \"command\": \"grep -q PASS status.txt\"}";
    EvaluationConfig config = EvaluationConfigs.load(fixture.operatorFile("evaluation.json",
        fixture.config(commands, ", \"baseline\": \"pass\"")));

    EvaluationReport report = Evaluator.builder(config).kernel(EvaluationFixture.bwrap()).build().run();

    CellResult denied = report.candidate("pass").cell("cat status.txt");
    assertThat(denied.outcome()).isEqualTo(CellOutcome.DENIED);
    assertThat(denied.status()).isEqualTo(ExecutionStatus.DENIED);
    assertThat(denied.exitCode()).isNull();
    assertThat(denied.message()).startsWith("EXECUTABLE_NOT_ALLOWED");
    assertThat(report.anyDenied()).isTrue();
    assertThat(report.candidate("pass").cell("status").outcome()).isEqualTo(CellOutcome.PASSED);
    assertThat(report.candidate("fail").cell("status").outcome()).isEqualTo(CellOutcome.FAILED);
    assertThat(report.regressions()).containsExactly(report.candidate("fail").cell("status"));
    JsonNode regressions = MAPPER.readTree(report.reportJson().toFile()).get("regressions");
    assertThat(regressions).hasSize(1);
    assertThat(regressions.get(0).get("candidate").asText()).isEqualTo("fail");
    assertThat(Files.readString(report.reportHtml())).contains("<td class=\"denied\"", "pass (baseline)")
        .containsOnlyOnce("class=\"regression\"");
    assertThat(fixture.output.resolve("worktrees")).isEmptyDirectory();
  }

  @Test
  void theHtmlReportEscapesRefsAndCommandsThatHoldMarkup() throws Exception {
    String script = "<script>alert(1)</script>";
    Git.git(fixture.repository, "branch", script, fixture.passCommit);
    String commands = "{\"name\": \"" + script + "\", \"argv\": [\"grep\", \"-q\", \"" + script + "\", \"status.txt\"]}";
    String config = fixture.config(commands, ", \"baseline\": \"pass\"")
        .replace("\"candidates\": [", "\"candidates\": [\"" + script + "\", ");

    EvaluationReport report = Evaluator.builder(EvaluationConfigs.load(fixture.operatorFile("evaluation.json", config)))
        .kernel(EvaluationFixture.bwrap()).build().run();

    assertThat(report.candidate(script).commit()).isEqualTo(fixture.passCommit);
    assertThat(report.candidate(script).cell(script).outcome()).isEqualTo(CellOutcome.DENIED);
    String html = Files.readString(report.reportHtml());
    assertThat(html).doesNotContainIgnoringCase("<script").doesNotContain("alert(1)</")
        .contains("&lt;script&gt;alert(1)&lt;/script&gt;");
    assertThat(Files.readString(report.reportJson())).contains(script);
  }

  @Test
  void worktreesACrashedRunLeftAreRemovedBeforeTheRun() throws Exception {
    Path stale = fixture.output.resolve("worktrees").resolve("evaluation-crashed-1");
    Files.createDirectories(stale.getParent());
    Git.git(fixture.repository, "worktree", "add", "--detach", stale.toString(), fixture.failCommit);
    Path leftover = Files.createDirectories(fixture.output.resolve("worktrees").resolve("evaluation-crashed-2").resolve("half"));
    EvaluationConfig config = EvaluationConfigs.load(fixture.operatorFile("evaluation.json",
        fixture.config("{\"argv\": [\"grep\", \"-q\", \"PASS\", \"status.txt\"]}", "")));

    EvaluationReport report = Evaluator.builder(config).kernel(EvaluationFixture.bwrap()).build().run();

    assertThat(report.prunedWorktrees()).containsExactly(stale.toString(), leftover.getParent().toString());
    assertThat(fixture.output.resolve("worktrees")).isEmptyDirectory();
    assertThat(Git.git(fixture.repository, "worktree", "list", "--porcelain")).doesNotContain("evaluation-crashed");
    assertThat(report.candidate("pass").cell("grep -q PASS status.txt").outcome()).isEqualTo(CellOutcome.PASSED);

    EvaluationReport again = Evaluator.builder(config).kernel(EvaluationFixture.bwrap()).build().run();

    assertThat(again.prunedWorktrees()).isEmpty();
    assertThat(again.evaluationId()).isNotEqualTo(report.evaluationId());
    assertThat(Files.readString(again.reportJson())).contains(again.evaluationId()).doesNotContain(report.evaluationId());
    try (var logs = Files.list(fixture.output.resolve("logs"))) {
      assertThat(logs.count()).as("one run's logs: two streams of one command on three candidates").isEqualTo(6);
    }
  }
}
