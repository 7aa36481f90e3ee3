package dev.capability.cli.internal;

import dev.capability.evaluator.Candidate;
import dev.capability.evaluator.CandidateResult;
import dev.capability.evaluator.CellOutcome;
import dev.capability.evaluator.CellResult;
import dev.capability.evaluator.EvaluationCommand;
import dev.capability.evaluator.EvaluationConfig;
import dev.capability.evaluator.EvaluationConfigs;
import dev.capability.evaluator.EvaluationException;
import dev.capability.evaluator.EvaluationProgress;
import dev.capability.evaluator.EvaluationReport;
import dev.capability.evaluator.Evaluator;
import dev.capability.evaluator.EvaluatorCodes;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.LoadedPolicy;
import dev.capability.ledger.LedgerOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code capability evaluate}: run an evaluation configuration's commands on each of its
 * candidates through the kernel, write the reports and record the evaluation in the repository's
 * ledger (docs/evaluator.md). A SIGINT or SIGTERM interrupts the run, which ends the running
 * command and removes every worktree before the JVM exits.
 */
@Command(name = "evaluate",
    description = "Run the configuration's commands on each candidate commit in a worktree of its own, through the kernel;"
        + " write report.json and report.html and record the evaluation in the repository's ledger.")
final class EvaluateCommand implements Callable<Integer> {
  /**
   * How long a SIGINT or SIGTERM waits for the evaluation to end the running command and remove
   * its worktrees before the JVM exits anyway: the kernel ends a process tree within seconds and
   * Git removes a worktree as fast; the bound is there only so that a hung Git cannot hold the
   * JVM forever.
   */
  private static final Duration CLEANUP_WAIT = Duration.ofSeconds(60);

  private final Console console;

  @Parameters(index = "0", paramLabel = "CONFIG",
      description = "The evaluation configuration (JSON, docs/schemas/evaluation-config.schema.json): a file outside the "
          + "repository, not a symbolic link, owned by you and writable by no one else.")
  Path config;

  @Option(names = "--parallel", paramLabel = "N", defaultValue = "1",
      description = "Evaluate up to N candidates at once, from 1 (the default) to the number of processors.")
  int parallel;

  @Option(names = "--no-ledger", description = "Do not record into the repository's ledger (.capability/state.db).")
  boolean noLedger;

  @Option(names = "--json", description = "Print a summary of the evaluation as JSON.")
  boolean json;

  EvaluateCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    int processors = Runtime.getRuntime().availableProcessors();
    if (parallel < 1 || parallel > processors) {
      // Checked before the configuration is read: a usage error whatever the file holds.
      throw new EvaluationException(EvaluatorCodes.EVALUATION_PARALLELISM_INVALID,
          "--parallel must be from 1 to the " + processors + " processors available, was " + parallel);
    }
    // Relative to the working directory, as --policy is; the loader then requires the canonical path.
    EvaluationConfig loaded = EvaluationConfigs.load(config.toAbsolutePath());
    InterruptOnSignal signals = InterruptOnSignal.install();
    try (RepositoryLedger ledger = noLedger ? null : new RepositoryLedger(loaded.repository(), LedgerOptions.defaults())) {
      Evaluator.Builder evaluator = Evaluator.builder(loaded)
          .parallelism(parallel)
          .progress(new ProgressLines(console.progress(json)))
          .kernel(policy -> kernel(policy, ledger));
      if (ledger != null) {
        evaluator.store(ledger);
      }
      EvaluationReport report = evaluator.build().run();
      if (json) {
        console.json(summary(report));
      } else {
        printSummary(report);
      }
      return report.allPassed() ? ExitCodes.OK : ExitCodes.DENIED;
    } finally {
      signals.close();
    }
  }

  private CommandKernel kernel(LoadedPolicy policy, @Nullable RepositoryLedger ledger) {
    CommandKernel.Builder kernel = CommandKernel.builder(policy).hostEnvironment(console.environment());
    if (ledger != null) {
      kernel.evidenceStore(ledger).decisionStore(ledger);
    }
    return kernel.build();
  }

  /**
   * While open, a shutdown hook that, on SIGINT or SIGTERM, interrupts the thread that opened it
   * (the evaluation then ends the running command, removes its worktrees and writes the report)
   * and waits, at most {@link #CLEANUP_WAIT}, until that thread closes it: the JVM exits once its
   * hooks return, whatever its other threads are doing. Closing removes the hook, so an in-process
   * caller keeps none.
   */
  private static final class InterruptOnSignal {
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread hook;

    private InterruptOnSignal(Thread evaluating) {
      this.hook = new Thread(() -> {
        evaluating.interrupt();
        try {
          closed.await(CLEANUP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "capability-evaluate-shutdown");
    }

    static InterruptOnSignal install() {
      InterruptOnSignal signals = new InterruptOnSignal(Thread.currentThread());
      Runtime.getRuntime().addShutdownHook(signals.hook);
      return signals;
    }

    void close() {
      closed.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running: the JVM exits once it returns, now that the evaluation has ended.
      }
    }
  }

  private void printSummary(EvaluationReport report) {
    for (CandidateResult candidate : report.candidates()) {
      List<String> cells = new ArrayList<>();
      for (CellResult cell : candidate.cells()) {
        cells.add(cell.command() + " " + cell.outcome());
      }
      console.out().println(candidate.candidate().name() + " " + shortCommit(candidate.commit()) + ": " + String.join(", ", cells)
          + (candidate.error() == null ? "" : "; error: " + candidate.error()));
    }
    for (CellResult regression : report.regressions()) {
      console.out().println("regression against " + report.config().baseline() + ": " + regression.command() + " " + regression.outcome());
    }
    console.out().println("evaluation " + report.evaluationId() + (report.interrupted() ? " interrupted" : report.allPassed()
        ? ": every command passed on every candidate" : ": some commands did not pass"));
    console.out().println("report: " + report.reportHtml());
    console.out().println("report (JSON): " + report.reportJson());
  }

  /** The {@code --json} summary: the outcome of every cell, and where the full reports are. */
  private static Map<String, Object> summary(EvaluationReport report) {
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("evaluationId", report.evaluationId());
    summary.put("configSha256", report.config().sha256());
    summary.put("policySha256", report.policySha256());
    summary.put("allPassed", report.allPassed());
    summary.put("interrupted", report.interrupted());
    summary.put("baseline", report.config().baseline());
    List<Map<String, Object>> candidates = new ArrayList<>();
    for (CandidateResult candidate : report.candidates()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", candidate.candidate().name());
      entry.put("ref", candidate.candidate().ref());
      entry.put("commit", candidate.commit());
      entry.put("passed", candidate.passed());
      entry.put("error", candidate.error());
      List<Map<String, Object>> cells = new ArrayList<>();
      for (CellResult cell : candidate.cells()) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("command", cell.command());
        c.put("outcome", cell.outcome().name());
        c.put("status", cell.status() == null ? null : cell.status().name());
        c.put("exitCode", cell.exitCode());
        c.put("durationMillis", cell.duration().toMillis());
        c.put("message", cell.message());
        cells.add(c);
      }
      entry.put("cells", cells);
      candidates.add(entry);
    }
    summary.put("candidates", candidates);
    summary.put("regressions", report.regressions().stream().map(CellResult::command).toList());
    summary.put("reportJson", report.reportJson().toString());
    summary.put("reportHtml", report.reportHtml().toString());
    return summary;
  }

  static String shortCommit(String commit) {
    return commit.substring(0, Math.min(12, commit.length()));
  }

  /**
   * One progress line when a candidate's worktree is made, and one when each command starts and
   * when it ends: candidate, commit, command, outcome and duration. Called from several threads
   * under {@code --parallel}.
   */
  private static final class ProgressLines implements EvaluationProgress {
    private final Consumer<String> progress;
    private final Map<String, String> commits = new ConcurrentHashMap<>();

    ProgressLines(Consumer<String> progress) {
      this.progress = progress;
    }

    @Override
    public void candidateStarted(Candidate candidate, String commit) {
      commits.put(candidate.name(), shortCommit(commit));
      progress.accept("evaluate: " + candidate.name() + " " + shortCommit(commit) + ": making its worktree");
    }

    @Override
    public void commandStarted(Candidate candidate, EvaluationCommand command) {
      progress.accept("evaluate: " + where(candidate) + " " + command.name() + ": started");
    }

    @Override
    public void commandFinished(Candidate candidate, EvaluationCommand command, CellResult result) {
      progress.accept("evaluate: " + where(candidate) + " " + command.name() + ": " + result.outcome()
          + (result.exitCode() == null ? "" : " (exit " + result.exitCode() + ")")
          + (result.outcome() == CellOutcome.NOT_RUN ? ": " + result.message() : " in " + seconds(result.duration())));
    }

    @Override
    public void candidateFinished(CandidateResult result) {
      if (result.error() != null) {
        progress.accept("evaluate: " + result.candidate().name() + " " + shortCommit(result.commit()) + ": " + result.error());
      }
    }

    private String where(Candidate candidate) {
      return candidate.name() + " " + commits.getOrDefault(candidate.name(), "");
    }

    private static String seconds(Duration duration) {
      return String.format(Locale.ROOT, "%.1fs", duration.toMillis() / 1000.0);
    }
  }
}
