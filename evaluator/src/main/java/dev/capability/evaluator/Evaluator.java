package dev.capability.evaluator;

import dev.capability.evaluator.internal.EvaluationRun;
import dev.capability.kernel.api.store.EvaluationStore;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.LoadedPolicy;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Runs an evaluation: every configured command on every candidate, each candidate checked out at
 * its commit in a Git worktree of its own under the output directory, every command through one
 * {@link CommandKernel} with the worktree as the repository, so the operator's policy decides each
 * one (a denied command is a {@link CellOutcome#DENIED} cell, not an error).
 *
 * <pre>{@code
 * EvaluationConfig config = EvaluationConfigs.load(Path.of("/etc/capability/evaluation.json"));
 * EvaluationReport report = Evaluator.builder(config)
 *     .kernel(policy -> CommandKernel.builder(policy).evidenceStore(ledger).build())
 *     .store(ledger)
 *     .progress(listener)
 *     .parallelism(2)
 *     .build()
 *     .run();
 * }</pre>
 *
 * <p>What it guarantees: the repository's main working tree, its index and every branch and ref
 * are left as they were (Git writes only the worktrees' own administrative files, which it removes
 * again); each worktree is removed (with {@code git worktree remove --force} and {@code git worktree
 * prune}) when its candidate is done, whether the commands passed, failed, timed out or the run was
 * interrupted; worktrees left by a run that crashed are found under the output directory and
 * removed before anything else. See {@code docs/evaluator-design.md}.
 */
public final class Evaluator {
  private final EvaluationConfig config;
  private final Function<LoadedPolicy, CommandKernel> kernelFactory;
  private final @Nullable EvaluationStore store;
  private final EvaluationProgress progress;
  private final int parallelism;

  private Evaluator(Builder b) {
    this.config = b.config;
    this.kernelFactory = b.kernelFactory;
    this.store = b.store;
    this.progress = b.progress;
    this.parallelism = b.parallelism;
  }

  /** A builder for an evaluation of {@code config}. */
  public static Builder builder(EvaluationConfig config) {
    return new Builder(config);
  }

  /**
   * Runs the evaluation and writes {@code report.json}, {@code report.html} and each cell's logs
   * into the output directory (replacing what an earlier run wrote there), then records the
   * report in the store, if one was given.
   *
   * <p>When the calling thread is interrupted, the command running is ended by the kernel, no
   * further command starts, every worktree is removed, the report is written with the cells that
   * did not run as {@link CellOutcome#NOT_RUN} and {@link EvaluationReport#interrupted()} true, and
   * this returns with the thread's interrupt status set.
   *
   * @throws EvaluationException before any command runs when the output directory lies inside the
   *     repository, is busy or cannot be written, the policy cannot be loaded, a candidate does not resolve to a commit,
   *     or Git cannot list or prune worktrees; after the run when the report cannot be written or
   *     recorded
   */
  public EvaluationReport run() {
    return new EvaluationRun(config, kernelFactory, store, progress, parallelism).run();
  }

  /** Builds an {@link Evaluator}. Defaults: backends found on the class path, no store, no progress, one candidate at a time. */
  public static final class Builder {
    private final EvaluationConfig config;
    private Function<LoadedPolicy, CommandKernel> kernelFactory = policy -> CommandKernel.builder(policy).build();
    private @Nullable EvaluationStore store;
    private EvaluationProgress progress = EvaluationProgress.NONE;
    private int parallelism = 1;

    private Builder(EvaluationConfig config) {
      this.config = Objects.requireNonNull(config, "config");
    }

    /**
     * Makes the run's kernel from the operator policy the configuration names (loaded when the run
     * starts, with the repository as the target): the place to give backends, the evidence store
     * that records each execution, or a host environment. The evaluator closes the kernel when the
     * run ends. By default {@code CommandKernel.builder(policy).build()}, which finds backends on
     * the class path.
     */
    public Builder kernel(Function<LoadedPolicy, CommandKernel> kernelFactory) {
      this.kernelFactory = Objects.requireNonNull(kernelFactory, "kernelFactory");
      return this;
    }

    /** Records the report in {@code store} (for example the ledger) once it is written. The evaluator does not close it. */
    public Builder store(EvaluationStore store) {
      this.store = Objects.requireNonNull(store, "store");
      return this;
    }

    /** Tells {@code progress} of each candidate's and command's start and end. */
    public Builder progress(EvaluationProgress progress) {
      this.progress = Objects.requireNonNull(progress, "progress");
      return this;
    }

    /**
     * How many candidates run at once: from 1 (the default: one after the other) to the number of
     * processors available to this JVM.
     *
     * @throws EvaluationException {@code EVALUATION_PARALLELISM_INVALID} outside that range
     */
    public Builder parallelism(int parallelism) {
      int processors = Runtime.getRuntime().availableProcessors();
      if (parallelism < 1 || parallelism > processors) {
        throw new EvaluationException(EvaluatorCodes.EVALUATION_PARALLELISM_INVALID, "the parallelism must be between 1 and the "
            + processors + " processors available, was " + parallelism);
      }
      this.parallelism = parallelism;
      return this;
    }

    public Evaluator build() {
      return new Evaluator(this);
    }
  }
}
