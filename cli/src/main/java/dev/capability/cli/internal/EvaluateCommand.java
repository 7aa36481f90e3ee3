package dev.capability.cli.internal;

import dev.capability.evaluator.Candidate;
import dev.capability.evaluator.CandidateResult;
import dev.capability.evaluator.CellOutcome;
import dev.capability.evaluator.CellResult;
import dev.capability.evaluator.EvaluationCommand;
import dev.capability.evaluator.EvaluationConfig;
import dev.capability.evaluator.EvaluationConfigs;
import dev.capability.evaluator.EvaluationProgress;
import dev.capability.evaluator.EvaluationReport;
import dev.capability.evaluator.Evaluator;
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
  static final Duration CLEANUP_WAIT = Duration.ofSeconds(60);

  private final Console console;

  @Parameters(index = "0", paramLabel = "CONFIG",
      description = "The evaluation configuration (JSON, docs/schemas/evaluation-config.schema.json): an absolute path outside the "
          + "repository, owned by you and writable by no one else.")
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
    // Relative to the working directory, as --policy is; the loader then requires the canonical path.
    EvaluationConfig loaded = EvaluationConfigs.load(config.toAbsolutePath());
    try (RepositoryLedger ledger = noLedger ? null : new RepositoryLedger(loaded.repository(), LedgerOptions.defaults())) {
      Evaluator.Builder evaluator = Evaluator.builder(loaded)
          .parallelism(parallel)
          .progress(new ProgressLines(console.progress(json)))
          .kernel(policy -> kernel(policy, ledger));
      if (ledger != null) {
        evaluator.store(ledger);
      }
      EvaluationReport report = runUntilSignalled(evaluator.build());
      if (json) {
        console.json(summary(report));
      } else {
        printSummary(report);
      }
      return report.allPassed() ? ExitCodes.OK : ExitCodes.DENIED;
    }
  }

  private CommandKernel kernel(LoadedPolicy policy, RepositoryLedger ledger) {
    CommandKernel.Builder kernel = CommandKernel.builder(policy).hostEnvironment(console.environment());
    if (ledger != null) {
      kernel.evidenceStore(ledger).decisionStore(ledger);
    }
    return kernel.build();
  }

  /**
   * Runs the evaluation on this thread with a shutdown hook that, on SIGINT or SIGTERM, interrupts
   * it and waits (at most {@link #CLEANUP_WAIT}) until it has ended the running command and
   * removed its worktrees: the JVM exits once its hooks return, whatever its other threads do.
   */
  private static EvaluationReport runUntilSignalled(Evaluator evaluator) {
    Thread evaluating = Thread.currentThread();
    CountDownLatch ended = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      evaluating.interrupt();
      try {
        ended.await(CLEANUP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "capability-evaluate-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      return evaluator.run();
    } finally {
      ended.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running: the JVM exits once it has seen the evaluation end.
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
