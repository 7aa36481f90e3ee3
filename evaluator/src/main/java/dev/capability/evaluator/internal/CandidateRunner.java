package dev.capability.evaluator.internal;

import dev.capability.evaluator.Candidate;
import dev.capability.evaluator.CandidateResult;
import dev.capability.evaluator.CellOutcome;
import dev.capability.evaluator.CellResult;
import dev.capability.evaluator.EvaluationCommand;
import dev.capability.evaluator.EvaluationConfig;
import dev.capability.evaluator.EvaluationProgress;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.core.CommandKernel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * Runs every command on one candidate: makes its worktree, gives each command to the kernel with
 * the worktree as the repository, writes each cell's logs, and removes the worktree in every case.
 * It never throws for a candidate's failure: a worktree Git cannot make is the candidate's error,
 * and its cells are not run.
 */
final class CandidateRunner {
  /** The most of a failing command's output kept in the report, in characters, from its end. */
  static final int MAX_EXCERPT_CHARS = 2000;

  private final EvaluationConfig config;
  private final CommandKernel kernel;
  private final Worktrees worktrees;
  private final OutputDirectory output;
  private final EvaluationProgress progress;
  private final String evaluationId;

  CandidateRunner(EvaluationConfig config, CommandKernel kernel, Worktrees worktrees, OutputDirectory output,
      EvaluationProgress progress, String evaluationId) {
    this.config = config;
    this.kernel = kernel;
    this.worktrees = worktrees;
    this.output = output;
    this.progress = progress;
    this.evaluationId = evaluationId;
  }

  /**
   * Runs candidate number {@code index} (from 0) at {@code commit}, unless {@code stop} is set;
   * sets {@code stop} when this thread is interrupted.
   */
  CandidateResult run(int index, Candidate candidate, String commit, AtomicBoolean stop) {
    if (stopped(stop)) {
      return notRun(candidate, commit);
    }
    tell(() -> progress.candidateStarted(candidate, commit));
    List<CellResult> cells = new ArrayList<>();
    String error = null;
    Path worktree = null;
    try {
      worktree = worktrees.add(evaluationId + "-" + (index + 1), commit);
      for (int k = 0; k < config.commands().size(); k++) {
        EvaluationCommand command = config.commands().get(k);
        if (stopped(stop)) {
          cells.add(notRunCell(command, "the evaluation was interrupted before this command ran"));
          continue;
        }
        tell(() -> progress.commandStarted(candidate, command));
        CellResult cell = execute(worktree, command, (index + 1) + "-" + (k + 1));
        if (Thread.currentThread().isInterrupted()) {
          stop.set(true);
        }
        cells.add(cell);
        tell(() -> progress.commandFinished(candidate, command, cell));
      }
    } catch (RuntimeException e) {
      error = e.getMessage();
      for (int k = cells.size(); k < config.commands().size(); k++) {
        cells.add(notRunCell(config.commands().get(k), "the candidate's worktree could not be used: " + e.getMessage()));
      }
    } finally {
      if (worktree != null) {
        try {
          worktrees.remove(worktree);
        } catch (RuntimeException e) {
          error = (error == null ? "" : error + "; ") + e.getMessage();
        }
      }
    }
    CandidateResult result = new CandidateResult(candidate, commit, cells, error);
    tell(() -> progress.candidateFinished(result));
    return result;
  }

  private boolean stopped(AtomicBoolean stop) {
    if (Thread.currentThread().isInterrupted()) {
      stop.set(true);
    }
    return stop.get();
  }

  /** A candidate whose turn never came, because the evaluation was interrupted. */
  CandidateResult notRun(Candidate candidate, String commit) {
    List<CellResult> cells = config.commands().stream()
        .map(c -> notRunCell(c, "the evaluation was interrupted before this candidate ran")).toList();
    return new CandidateResult(candidate, commit, cells, null);
  }

  static CellResult notRunCell(EvaluationCommand command, String why) {
    return new CellResult(command.name(), command.argv(), CellOutcome.NOT_RUN, null, null, Duration.ZERO, "", "", "", "", "", why, null);
  }

  private CellResult execute(Path worktree, EvaluationCommand command, String cellId) {
    ExecutionRequest.Builder request = ExecutionRequest.argv(command.argv()).repository(worktree);
    if (command.timeout() != null) {
      request.timeout(command.timeout());
    }
    if (command.maxOutputBytes() != null) {
      request.maxOutputBytes(command.maxOutputBytes());
    }
    if (config.backend() != null) {
      request.backend(config.backend());
    }
    request.require(config.requiredCapabilities().toArray(IsolationCapability[]::new));
    long started = System.nanoTime();
    ExecutionResult result = kernel.execute(request.build());
    Duration duration = Duration.ofNanos(System.nanoTime() - started);
    String stdoutLog = OutputDirectory.LOGS + "/" + cellId + ".stdout.log";
    String stderrLog = OutputDirectory.LOGS + "/" + cellId + ".stderr.log";
    output.write(stdoutLog, result.stdout().bytes());
    output.write(stderrLog, result.stderr().bytes());
    CellOutcome outcome = outcome(result);
    String message = result.status() == ExecutionStatus.DENIED
        ? result.decision().code() + ": " + result.decision().message()
        : nullToEmpty(result.failureMessage());
    return new CellResult(command.name(), command.argv(), outcome, result.status(),
        result.exitCode().isPresent() ? result.exitCode().getAsInt() : null, duration,
        result.stdout().sha256(), result.stderr().sha256(), stdoutLog, stderrLog,
        outcome == CellOutcome.PASSED ? "" : excerpt(result, message), message,
        AttestationJson.toMap(result.attestation()));
  }

  private static CellOutcome outcome(ExecutionResult result) {
    if (result.succeeded()) {
      return CellOutcome.PASSED;
    }
    return switch (result.status()) {
      case DENIED -> CellOutcome.DENIED;
      case TIMED_OUT -> CellOutcome.TIMED_OUT;
      default -> CellOutcome.FAILED;
    };
  }

  /** The end of the error stream, else of the output, else the kernel's message. */
  private static String excerpt(ExecutionResult result, String message) {
    String text = tail(result.stderr());
    if (text.isBlank()) {
      text = tail(result.stdout());
    }
    return text.isBlank() ? message : text;
  }

  private static String tail(CapturedOutput output) {
    String text = output.text();
    return text.length() <= MAX_EXCERPT_CHARS ? text : text.substring(text.length() - MAX_EXCERPT_CHARS);
  }

  private static String nullToEmpty(@Nullable String text) {
    return text == null ? "" : text;
  }

  /** Tells the listener; what it throws stops nothing. */
  private static void tell(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      // The listener's failure is its own; the evaluation goes on.
    }
  }
}
