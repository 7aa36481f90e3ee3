package dev.capability.evaluator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.process.ProcessBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An evaluation interrupted while a command runs under real bwrap (and on the process backend) ends that command's whole
 * process tree, runs nothing more, removes every worktree and still writes its report; the
 * evaluation's own bounds (parallelism, candidates that resolve) are checked before anything runs.
 */
class InterruptionInSandboxTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final BackendGate PROCESS = BackendGate.of(new ProcessBackendProvider(), BackendConfig.defaults());
  private static final String SLEEP = "{\"name\": \"sleep\", \"argv\": [\"sleep\", \"" + EvaluationFixture.SLEEP_MARKER
      + "\"], \"timeoutSeconds\": 600}";

  @TempDir Path tmp;
  private EvaluationFixture fixture;

  @AfterAll
  static void close() {
    BWRAP.close();
    PROCESS.close();
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

  /**
   * Under bwrap, the kernel's choice under the fixture's policy (no network); on the process
   * backend, named by the configuration, under the same policy with the host's network, which is
   * all a plain child process can supply.
   */
  @ParameterizedTest
  @ValueSource(strings = {"bwrap", "process"})
  void anInterruptDuringACommandEndsItRemovesEveryWorktreeAndWritesTheReport(String backend) throws Exception {
    boolean sandbox = backend.equals("bwrap");
    (sandbox ? BWRAP : PROCESS).backend();
    List<Object> before = fixture.mainTreeState();
    String json = fixture.config(SLEEP, sandbox ? "" : ", \"backend\": \"process\"");
    if (!sandbox) {
      Path hostNetwork = fixture.operatorFile("policy-host.json",
          ExecutionPolicies.toJson(EvaluationFixture.policy().network(NetworkMode.HOST).build()));
      json = json.replace("\"policy\": \"" + fixture.policy + "\"", "\"policy\": \"" + hostNetwork + "\"");
    }
    EvaluationConfig config = EvaluationConfigs.load(fixture.operatorFile("evaluation.json", json));
    CountDownLatch started = new CountDownLatch(1);
    AtomicReference<EvaluationReport> report = new AtomicReference<>();
    AtomicReference<Boolean> interruptStatus = new AtomicReference<>();
    List<Map<String, Object>> recorded = new ArrayList<>();
    Evaluator evaluator = Evaluator.builder(config)
        .kernel(EvaluationFixture.kernels(sandbox ? new BwrapBackendProvider() : new ProcessBackendProvider())).store(r -> {
      recorded.add(r.report());
      return 1;
    }).progress(new EvaluationProgress() {
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
    assertThat(markedProcesses()).as("the sleep is running").isNotEmpty();
    Path worktree = fixture.output.resolve("worktrees");
    assertThat(Files.list(worktree).count()).as("the first candidate's worktree exists").isEqualTo(1);
    runner.interrupt();
    runner.join(TimeUnit.SECONDS.toMillis(120));

    assertThat(runner.isAlive()).isFalse();
    assertThat(report.get()).isNotNull();
    assertThat(interruptStatus.get()).as("the run returns with the interrupt status set").isTrue();
    assertThat(report.get().interrupted()).isTrue();
    assertThat(report.get().allPassed()).isFalse();
    CellResult ended = report.get().candidate("pass").cell("sleep");
    assertThat(ended.outcome()).isNotEqualTo(CellOutcome.NOT_RUN).isNotEqualTo(CellOutcome.PASSED);
    assertThat(ended.attestation().get("backend")).isInstanceOfSatisfying(Map.class, b -> assertThat(b.get("id")).isEqualTo(backend));
    assertThat(report.get().candidate("fail").cell("sleep").outcome()).isEqualTo(CellOutcome.NOT_RUN);
    assertThat(report.get().candidate("hang").cell("sleep").outcome()).isEqualTo(CellOutcome.NOT_RUN);
    assertThat(Files.readString(report.get().reportJson())).contains("\"interrupted\" : true");
    assertThat(recorded).singleElement().satisfies(r -> assertThat(r).containsEntry("interrupted", true));
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
        .as("the cells' messages %s and the candidates' errors %s", report.cells().stream().map(CellResult::message).toList(),
            report.candidates().stream().map(c -> String.valueOf(c.error())).toList())
        .containsExactly(CellOutcome.PASSED, CellOutcome.FAILED, CellOutcome.PASSED);
    assertThat(fixture.output.resolve("worktrees")).isEmptyDirectory();
  }

  @Test
  void aSecondEvaluationInTheSameOutputDirectoryIsRefusedWhileTheFirstHoldsIt() throws IOException {
    EvaluationConfig config = EvaluationConfigs.load(fixture.operatorFile("evaluation.json", fixture.config(SLEEP, "")));
    Files.createDirectories(fixture.output);
    try (FileChannel channel = FileChannel.open(fixture.output.resolve(".evaluation.lock"), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE); FileLock held = channel.lock()) {
      assertThat(held.isValid()).isTrue();
      assertThatThrownBy(() -> Evaluator.builder(config).build().run())
          .isInstanceOfSatisfying(EvaluationException.class, e -> assertThat(e.code()).isEqualTo(EvaluatorCodes.EVALUATION_OUTPUT_BUSY));
    }
    assertThat(fixture.output.resolve("worktrees")).doesNotExist();
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
