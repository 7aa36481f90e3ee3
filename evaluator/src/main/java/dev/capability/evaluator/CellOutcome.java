package dev.capability.evaluator;

/** What one command did on one candidate, as the report colours it. */
public enum CellOutcome {
  /** The command ran and exited 0. */
  PASSED,
  /** The command ran and exited non-zero, or the kernel ended it at a bound other than time, or it could not start. */
  FAILED,
  /** The kernel refused the command under the operator's policy; nothing ran. */
  DENIED,
  /** The command reached its wall-clock bound and its whole process tree was ended. */
  TIMED_OUT,
  /** The command did not run: the candidate's worktree could not be made, or the evaluation was interrupted first. */
  NOT_RUN
}
