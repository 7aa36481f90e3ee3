package dev.capability.evaluator;

/**
 * Hears the evaluation advance, for example to print one line per candidate and command. Each
 * method is called on the thread running that candidate: with a parallelism above 1, from several
 * threads at once, so an implementation must be thread-safe. A method that throws stops nothing;
 * what it threw is ignored. Every method does nothing by default.
 */
public interface EvaluationProgress {

  /** Does nothing. */
  EvaluationProgress NONE = new EvaluationProgress() {};

  /** The candidate's worktree is about to be made at {@code commit}. */
  default void candidateStarted(Candidate candidate, String commit) {}

  /** {@code command} is about to be given to the kernel for {@code candidate}. */
  default void commandStarted(Candidate candidate, EvaluationCommand command) {}

  /** {@code command} finished on {@code candidate} with {@code result}; not called for a command that did not run. */
  default void commandFinished(Candidate candidate, EvaluationCommand command, CellResult result) {}

  /** Every command of {@code candidate} is done and its worktree removed. */
  default void candidateFinished(CandidateResult result) {}
}
