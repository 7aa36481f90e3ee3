package dev.capability.evaluator;

/**
 * The stable codes of {@link EvaluationException}. See {@code docs/evaluator-design.md} for what
 * triggers each one.
 */
public final class EvaluatorCodes {
  private EvaluatorCodes() {}

  /** The configuration is not valid JSON, breaks a rule of the format, or names a command with a shell operator. */
  public static final String EVALUATION_CONFIG_INVALID = "EVALUATION_CONFIG_INVALID";
  /**
   * The configuration file fails a check of the operator policy's file (relative, not canonical, a
   * symbolic link, inside the repository or the output directory, owned by another user, group- or
   * world-writable, ...); the message names the check, the cause carries its {@code POLICY_*} code.
   */
  public static final String EVALUATION_CONFIG_UNTRUSTED = "EVALUATION_CONFIG_UNTRUSTED";
  /** The operator policy the configuration names cannot be loaded; the cause carries its {@code POLICY_*} code. */
  public static final String EVALUATION_POLICY_REFUSED = "EVALUATION_POLICY_REFUSED";
  /** A candidate does not name a commit of the repository. */
  public static final String EVALUATION_CANDIDATE_UNRESOLVED = "EVALUATION_CANDIDATE_UNRESOLVED";
  /** The requested parallelism is below 1 or above the number of available processors. */
  public static final String EVALUATION_PARALLELISM_INVALID = "EVALUATION_PARALLELISM_INVALID";
  /** Another evaluation holds the output directory. */
  public static final String EVALUATION_OUTPUT_BUSY = "EVALUATION_OUTPUT_BUSY";
  /** The output directory, its logs or its report cannot be written. */
  public static final String EVALUATION_OUTPUT_FAILED = "EVALUATION_OUTPUT_FAILED";
  /** Git could not list, add, remove or prune a worktree, or resolve a candidate. */
  public static final String EVALUATION_GIT_FAILED = "EVALUATION_GIT_FAILED";
  /** The evaluation store threw while recording the report (which was written to the output directory first). */
  public static final String EVALUATION_NOT_RECORDED = "EVALUATION_NOT_RECORDED";
}
