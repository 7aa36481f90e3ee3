package dev.capability.evaluator.internal;

import static dev.capability.evaluator.EvaluatorCodes.EVALUATION_CANDIDATE_UNRESOLVED;
import static dev.capability.evaluator.EvaluatorCodes.EVALUATION_CONFIG_INVALID;
import static dev.capability.evaluator.EvaluatorCodes.EVALUATION_NOT_RECORDED;
import static dev.capability.evaluator.EvaluatorCodes.EVALUATION_POLICY_REFUSED;

import dev.capability.evaluator.Candidate;
import dev.capability.evaluator.CandidateResult;
import dev.capability.evaluator.CellResult;
import dev.capability.evaluator.EvaluationCommand;
import dev.capability.evaluator.EvaluationConfig;
import dev.capability.evaluator.EvaluationException;
import dev.capability.evaluator.EvaluationProgress;
import dev.capability.evaluator.EvaluationReport;
import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.store.EvaluationRecord;
import dev.capability.kernel.api.store.EvaluationStore;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.kernel.core.LoadedPolicy;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One run of an evaluation: lock the output directory, remove what a crashed run left, load the
 * policy, resolve every candidate, then run the candidates (one at a time, or on a bounded pool),
 * write the report and record it.
 */
public final class EvaluationRun {
  private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final EvaluationConfig config;
  private final Function<LoadedPolicy, CommandKernel> kernelFactory;
  private final @Nullable EvaluationStore store;
  private final EvaluationProgress progress;
  private final int parallelism;

  public EvaluationRun(EvaluationConfig config, Function<LoadedPolicy, CommandKernel> kernelFactory, @Nullable EvaluationStore store,
      EvaluationProgress progress, int parallelism) {
    this.config = config;
    this.kernelFactory = kernelFactory;
    this.store = store;
    this.progress = progress;
    this.parallelism = parallelism;
  }

  /** See {@link dev.capability.evaluator.Evaluator#run}. */
  public EvaluationReport run() {
    Instant startedAt = Instant.now();
    String evaluationId = "evaluation-" + ID_TIME.format(startedAt) + "-" + HexFormat.of().formatHex(randomBytes());
    if (config.outputDirectory().startsWith(config.repository()) || config.repository().startsWith(config.outputDirectory())) {
      throw new EvaluationException(EVALUATION_CONFIG_INVALID, "the output directory " + config.outputDirectory()
          + " must lie outside the repository " + config.repository() + " and not contain it");
    }
    try (OutputDirectory output = OutputDirectory.open(config.outputDirectory())) {
      GitRunner git = new GitRunner(config.repository());
      Worktrees worktrees = new Worktrees(git, config.outputDirectory());
      List<String> pruned = worktrees.pruneStale();
      LoadedPolicy policy = policy();
      List<String> commits = config.candidates().stream().map(c -> resolve(git, c)).toList();
      output.reset();
      List<CandidateResult> results;
      AtomicBoolean stop = new AtomicBoolean();
      try (CommandKernel kernel = kernelFactory.apply(policy)) {
        CandidateRunner runner = new CandidateRunner(config, kernel, worktrees, output, progress, evaluationId);
        results = parallelism == 1 ? sequential(runner, commits, stop) : parallel(runner, commits, stop);
      }
      // The status is cleared while the report is written and recorded, since a store may write
      // through interruptible channels, and set again before returning.
      boolean threadInterrupted = Thread.interrupted();
      boolean interrupted = stop.get() || threadInterrupted;
      try {
        EvaluationReport report = new EvaluationReport(evaluationId, config, policy.hash(), startedAt, Instant.now(), interrupted,
            pruned, results, output.reportJson(), output.reportHtml());
        ReportWriter.write(report, output);
        record(report);
        return report;
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  private static byte[] randomBytes() {
    byte[] bytes = new byte[4];
    RANDOM.nextBytes(bytes);
    return bytes;
  }

  private LoadedPolicy policy() {
    try {
      return ExecutionPolicies.load(config.policy(), config.repository());
    } catch (PolicyException e) {
      throw new EvaluationException(EVALUATION_POLICY_REFUSED, "the operator policy " + config.policy() + " named by "
          + config.source() + ": " + e.getMessage() + " (" + e.code() + ")", e);
    }
  }

  private String resolve(GitRunner git, Candidate candidate) {
    GitRunner.Result result = git.run("rev-parse", "--verify", "--quiet", "--end-of-options", candidate.ref() + "^{commit}");
    String commit = result.stdout().strip();
    if (!result.ok() || !commit.matches("[0-9a-f]{40}|[0-9a-f]{64}")) {
      throw new EvaluationException(EVALUATION_CANDIDATE_UNRESOLVED, "the candidate '" + candidate.name() + "' (ref '" + candidate.ref()
          + "') names no commit of the repository " + config.repository() + (result.stderr().isBlank() ? "" : ": " + result.stderr().strip()));
    }
    return commit;
  }

  private List<CandidateResult> sequential(CandidateRunner runner, List<String> commits, AtomicBoolean stop) {
    List<CandidateResult> results = new ArrayList<>();
    for (int i = 0; i < commits.size(); i++) {
      results.add(runner.run(i, config.candidates().get(i), commits.get(i), stop));
    }
    return results;
  }

  /**
   * Runs the candidates on {@link #parallelism} threads. An interrupt of the calling thread stops
   * every candidate: the running commands are ended by the kernel, each worktree removed by its
   * own thread, which this one waits for before it returns with the interrupt status set.
   */
  private List<CandidateResult> parallel(CandidateRunner runner, List<String> commits, AtomicBoolean stop) {
    AtomicInteger threads = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(parallelism, task -> {
      Thread thread = new Thread(task, "evaluator-candidate-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    List<Future<CandidateResult>> futures = new ArrayList<>();
    try {
      for (int i = 0; i < commits.size(); i++) {
        int index = i;
        futures.add(pool.submit(() -> runner.run(index, config.candidates().get(index), commits.get(index), stop)));
      }
      pool.shutdown();
      List<CandidateResult> results = new ArrayList<>();
      boolean interrupted = false;
      for (int i = 0; i < futures.size(); i++) {
        while (true) {
          try {
            results.add(futures.get(i).get());
            break;
          } catch (InterruptedException e) {
            interrupted = true;
            stop.set(true);
            pool.shutdownNow().forEach(task -> ((Future<?>) task).cancel(false));
          } catch (CancellationException e) {
            results.add(runner.notRun(config.candidates().get(i), commits.get(i)));
            break;
          } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
              throw runtime;
            }
            throw new IllegalStateException(e.getCause());
          }
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  private void record(EvaluationReport report) {
    if (store == null) {
      return;
    }
    try {
      store.recordEvaluation(EvaluationRecord.of(report.toJson()));
    } catch (RuntimeException e) {
      throw new EvaluationException(EVALUATION_NOT_RECORDED, "the evaluation " + report.evaluationId() + " was written to "
          + report.reportJson() + " but the store could not record it: " + e.getMessage(), e);
    }
  }
}
