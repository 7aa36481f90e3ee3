package dev.capability.workflow;

/**
 * The stable codes of {@link Assumptions}' refusals ({@link WorkflowException#code()}). A refusal
 * records nothing. A correction's verification that fails is a value with the work plan's
 * verification codes ({@link WorkflowCodes#COMMAND_FAILED}, {@link WorkflowCodes#PHASE_SCOPE_VIOLATION},
 * {@link WorkflowCodes#SECRET_FOUND}).
 */
public final class AssumptionCodes {
  private AssumptionCodes() {}

  /** The assumption document is not valid JSON or breaks the format (JSON pointer). */
  public static final String ASSUMPTION_INVALID = "ASSUMPTION_INVALID";
  /** The confidence is not a number from 0 to 1: a string, NaN, an infinity, or outside [0, 1]. Never clamped. */
  public static final String ASSUMPTION_CONFIDENCE_INVALID = "ASSUMPTION_CONFIDENCE_INVALID";
  /** A file link is not a repository-relative path or glob: absolute, with {@code ..}, {@code .} or an empty segment. */
  public static final String ASSUMPTION_LINK_OUTSIDE_REPOSITORY = "ASSUMPTION_LINK_OUTSIDE_REPOSITORY";
  /** A link names an assumption that is not recorded, or a phase the work plan does not have. */
  public static final String ASSUMPTION_LINK_UNKNOWN = "ASSUMPTION_LINK_UNKNOWN";
  /** The links would make the dependency graph cyclic, so that the radius would have no end. */
  public static final String ASSUMPTION_LINK_CYCLE = "ASSUMPTION_LINK_CYCLE";
  /** An assumption with this id is recorded already. */
  public static final String ASSUMPTION_EXISTS = "ASSUMPTION_EXISTS";
  /** No assumption with this id is recorded. */
  public static final String ASSUMPTION_UNKNOWN = "ASSUMPTION_UNKNOWN";
  /** The assumption was invalidated already. */
  public static final String ASSUMPTION_ALREADY_INVALIDATED = "ASSUMPTION_ALREADY_INVALIDATED";
  /** The step needs an invalidated assumption; this one was not invalidated. */
  public static final String ASSUMPTION_NOT_INVALIDATED = "ASSUMPTION_NOT_INVALIDATED";
  /** The root cause of an invalidation is empty or blank. */
  public static final String ROOT_CAUSE_REQUIRED = "ROOT_CAUSE_REQUIRED";
  /** The justification of an expansion, or the reason of an abandonment, is empty or blank. */
  public static final String JUSTIFICATION_REQUIRED = "JUSTIFICATION_REQUIRED";
  /** An expansion's path is not a valid write-scope pattern, or there is none. */
  public static final String EXPANSION_INVALID = "EXPANSION_INVALID";
  /** An expansion's path allows something the phase's authority (operator ∩ contract ∩ phase) does not (counterexample). */
  public static final String EXPANSION_OUTSIDE_PHASE = "EXPANSION_OUTSIDE_PHASE";
  /** The correction has an outcome already. */
  public static final String CORRECTION_CLOSED = "CORRECTION_CLOSED";
  /** Resolving needs a passing verification of the correction, on the working tree as it is. */
  public static final String CORRECTION_NOT_VERIFIED = "CORRECTION_NOT_VERIFIED";
}
