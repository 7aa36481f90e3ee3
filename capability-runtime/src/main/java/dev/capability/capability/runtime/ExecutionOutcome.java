package dev.capability.capability.runtime;

/** How a run ended. */
public enum ExecutionOutcome {
  /** The capability returned an output valid against its schema and every hook succeeded. */
  SUCCEEDED,
  /** The capability ran and failed (threw, returned invalid output, or was not verified). */
  FAILED,
  /** The run was refused after planning (policy, drift, executor) and nothing was executed. */
  REFUSED
}
