package dev.capability.evaluator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An evaluation interrupted while a command runs under real bwrap ends that command's whole
 * process tree, runs nothing more, removes every worktree and still writes its report; the
 * evaluation's own bounds (parallelism, candidates that resolve) are checked before anything runs.
 */
class InterruptionInSandboxTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final String SLEEP = "{\"name\": \"sleep\", \"argv\": [\"sleep\", \"" + EvaluationFixture.SLEEP_MARKER
      + "\"], \"timeoutSeconds\": 600}";

  @TempDir Path tmp;
  private EvaluationFixture fixture;

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @BeforeEach
  void setUp() throws Exception {
    fixture = new EvaluationFixture(tmp);
  }

  /**
   * The pids of every process with the marker as an argument, read from /proc: the sandboxed
   * {@code sleep} and whatever launched it with its argv.
   */
  private static List<Long> markedProcesses() throws IOException {
    List<Long> pids = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path entry : entries) {
        try {
          String argv = new String(Files.readAllBytes(entry.resolve("cmdline")), StandardCharsets.UTF_8);
          if (argv.contains("\0" + EvaluationFixture.SLEEP_MARKER)) {
            pids.add(Long.parseLong(entry.getFileName().toString()));
          }
        } catch (IOException e) {
          // The process ended while it was read.
        }
      }
    }
    return pids;
  }

  @Test
  void anInterruptDuringACommandEndsItRemovesEveryWorktreeAndWritesTheReport() throws Exception {
    BWRAP.backend();
    List<Object> before = fixture.mainTreeState();
    EvaluationConfig config = EvaluationConfigs.load(fixture.operatorFile("evaluation.json", fixture.config(SLEEP, "")));
    CountDownLatch started = new CountDownLatch(1);
    AtomicReference<EvaluationReport> report = new AtomicReference<>();
    AtomicReference<Boolean> interruptStatus = new AtomicReference<>();
    Evaluator evaluator = Evaluator.builder(config).kernel(EvaluationFixture.bwrap()).progress(new EvaluationProgress() {
      @Override
      public void commandStarted(Candidate candidate, EvaluationCommand command) {
        started.countDown();
      }
    }).build();
    Thread runner = new Thread(() -> {
      report.set(evaluator.run());
      interruptStatus.set(Thread.currentThread().isInterrupted());
    });
    runner.start();

    assertThat(started.await(120, TimeUnit.SECONDS)).as("the first command started").isTrue();
    long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (markedProcesses().isEmpty() && System.nanoTime() < waitUntil) {
      Thread.sleep(50);
    }
    assertThat(markedProcesses()).as("the sandboxed sleep is running").isNotEmpty();
    Path worktree = fixture.output.resolve("worktrees");
    assertThat(Files.list(worktree).count()).as("the first candidate's worktree exists").isEqualTo(1);
    runner.interrupt();
    runner.join(TimeUnit.SECONDS.toMillis(120));

    assertThat(runner.isAlive()).isFalse();
    assertThat(report.get()).isNotNull();
    assertThat(interruptStatus.get()).as("the run returns with the interrupt status set").isTrue();
    assertThat(report.get().interrupted()).isTrue();
    assertThat(report.get().allPassed()).isFalse();
    assertThat(report.get().candidate("pass").cell("sleep").outcome()).isNotEqualTo(CellOutcome.NOT_RUN).isNotEqualTo(CellOutcome.PASSED);
    assertThat(report.get().candidate("fail").cell("sleep").outcome()).isEqualTo(CellOutcome.NOT_RUN);
    assertThat(report.get().candidate("hang").cell("sleep").outcome()).isEqualTo(CellOutcome.NOT_RUN);
    assertThat(Files.readString(report.get().reportJson())).contains("\"interrupted\" : true");
    assertThat(markedProcesses()).as("no sleep is left").isEmpty();
    assertThat(worktree).isEmptyDirectory();
    assertThat(fixture.mainTreeState()).isEqualTo(before);
  }

  @Test
  void candidatesRunInParallelKeepTheirOrderAndEveryWorktreeIsRemoved() throws Exception {
    BWRAP.backend();
    EvaluationConfig config = EvaluationConfigs.load(fixture.operatorFile("evaluation.json",
        fixture.config("{\"argv\": [\"grep\", \"-q\", \"PASS\", \"status.txt\"]}", "")));

    EvaluationReport report = Evaluator.builder(config).kernel(EvaluationFixture.bwrap()).parallelism(2).build().run();

    assertThat(report.candidates()).extracting(c -> c.candidate().name()).containsExactly("pass", "fail", "hang");
    assertThat(report.cells()).extracting(CellResult::outcome)
        .containsExactly(CellOutcome.PASSED, CellOutcome.FAILED, CellOutcome.PASSED);
    assertThat(fixture.output.resolve("worktrees")).isEmptyDirectory();
  }

  @Test
  void refusesMoreParallelismThanProcessors() throws IOException {
    EvaluationConfig config = EvaluationConfigs.load(fixture.operatorFile("evaluation.json", fixture.config(SLEEP, "")));
    int processors = Runtime.getRuntime().availableProcessors();

    assertThatThrownBy(() -> Evaluator.builder(config).parallelism(processors + 1))
        .isInstanceOfSatisfying(EvaluationException.class,
            e -> assertThat(e.code()).isEqualTo(EvaluatorCodes.EVALUATION_PARALLELISM_INVALID))
        .hasMessageContaining(processors + " processors");
  }

  @Test
  void aCandidateThatNamesNoCommitStopsTheEvaluationBeforeAnythingRuns() throws IOException {
    EvaluationConfig config = EvaluationConfigs.load(fixture.operatorFile("evaluation.json",
        fixture.config(SLEEP, "").replace("\"ref\": \"main\"", "\"ref\": \"no-such-branch\"")));

    assertThatThrownBy(() -> Evaluator.builder(config).kernel(policy -> {
      throw new AssertionError("no kernel is made before every candidate resolves");
    }).build().run())
        .isInstanceOfSatisfying(EvaluationException.class,
            e -> assertThat(e.code()).isEqualTo(EvaluatorCodes.EVALUATION_CANDIDATE_UNRESOLVED))
        .hasMessageContaining("no-such-branch");
    assertThat(Git.git(fixture.repository, "worktree", "list", "--porcelain")).containsOnlyOnce("worktree ");
  }
}
