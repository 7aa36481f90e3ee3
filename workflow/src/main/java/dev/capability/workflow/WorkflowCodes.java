package dev.capability.workflow;

/**
 * The stable codes of work-plan refusals ({@link WorkflowException}) and of failed verifications
 * ({@link PhaseVerification#failureCode()}). {@code docs/workflow.md} says what triggers each one.
 */
public final class WorkflowCodes {
  private WorkflowCodes() {}

  // Reading documents.
  /** A contract is not valid JSON or breaks the format; the message names the JSON pointer. */
  public static final String CONTRACT_INVALID = "CONTRACT_INVALID";
  /** A work plan is not valid JSON or breaks the format; the message names the JSON pointer. */
  public static final String WORK_PLAN_INVALID = "WORK_PLAN_INVALID";
  /** An amendment is not a valid RFC 6902 JSON Patch, or cannot be applied to the current revision. */
  public static final String PLAN_PATCH_INVALID = "PLAN_PATCH_INVALID";

  // Authority.
  /** The contract allows something the operator's policy does not; the message names the counterexample. */
  public static final String CONTRACT_WIDENS_OPERATOR = "CONTRACT_WIDENS_OPERATOR";
  /** A phase allows something the project contract does not; the message names the counterexample. */
  public static final String PLAN_WIDENS_CONTRACT = "PLAN_WIDENS_CONTRACT";
  /** A command of a plan or contract uses shell syntax or is malformed; the message names the construct and its offset. */
  public static final String PLAN_COMMAND_SHELL_SYNTAX = "PLAN_COMMAND_SHELL_SYNTAX";
  /** A command of a plan or contract is not allowed by operator ∩ contract ∩ phase; the message names the layer and rule. */
  public static final String PLAN_COMMAND_NOT_ALLOWED = "PLAN_COMMAND_NOT_ALLOWED";
  /** A command of a plan or contract does nothing whatever the code does ({@code true}, {@code :}). */
  public static final String PLAN_COMMAND_NO_OP = "PLAN_COMMAND_NO_OP";
  /** Under high assurance, an acceptance command is not one of the operator policy's exact argument lists. */
  public static final String PLAN_COMMAND_NOT_EXACT = "PLAN_COMMAND_NOT_EXACT";
  /**
   * The host accepts only the operator's listed commands in plans (over MCP HTTP, the server's
   * {@code --acceptance-command} list), and a plan names another.
   */
  public static final String PLAN_COMMAND_NOT_LISTED = "PLAN_COMMAND_NOT_LISTED";
  /** Under high assurance, the contract has no blocking critic. */
  public static final String CRITIC_REQUIRED = "CRITIC_REQUIRED";

  // The plan's history.
  /** No contract has been set for the repository. */
  public static final String CONTRACT_MISSING = "CONTRACT_MISSING";
  /** No work plan has been saved for the repository. */
  public static final String WORK_PLAN_MISSING = "WORK_PLAN_MISSING";
  /** A plan with this id was saved already; amend it instead. */
  public static final String WORK_PLAN_EXISTS = "WORK_PLAN_EXISTS";
  /** An amendment changes or deletes a completed phase, or changes the plan's id. */
  public static final String PLAN_CHANGES_COMPLETED_PHASE = "PLAN_CHANGES_COMPLETED_PHASE";

  /** A token report is empty, too long, names a counter badly or gives a negative or missing count. */
  public static final String TOKENS_INVALID = "TOKENS_INVALID";

  // Phases.
  /** There is no active phase (every phase is complete), or the phase named is not the active one. */
  public static final String PHASE_NOT_ACTIVE = "PHASE_NOT_ACTIVE";
  /** The active phase has no passing verification under the plan revision in force. */
  public static final String PHASE_NOT_VERIFIED = "PHASE_NOT_VERIFIED";
  /** The working tree changed after the phase was verified; verify again. */
  public static final String EVIDENCE_STALE = "EVIDENCE_STALE";
  /** A blocking critic did not approve the phase's evidence. */
  public static final String CRITIC_REJECTED = "CRITIC_REJECTED";

  // Verification failures (values, in PhaseVerification).
  /** An acceptance, selective-test or full-suite command did not run to exit status 0. */
  public static final String COMMAND_FAILED = "COMMAND_FAILED";
  /** A path changed since the phase started lies outside the phase's authority (scope, protected, read-only). */
  public static final String PHASE_SCOPE_VIOLATION = "PHASE_SCOPE_VIOLATION";
  /** A file changed since the phase started, or a command's output, holds a secret. */
  public static final String SECRET_FOUND = "SECRET_FOUND";
}
