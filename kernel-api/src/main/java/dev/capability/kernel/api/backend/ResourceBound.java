package dev.capability.kernel.api.backend;

/**
 * A per-run resource bound that a launched command reached ({@link LaunchResult#boundsHit()}).
 * Timeouts and output bounds have their own fields; these are the bounds the operating system or
 * the backend's own measurement enforces.
 */
public enum ResourceBound {
  /** The out-of-memory killer ended a process of the command for the backend's memory limit. */
  MEMORY,
  /** A fork or clone of the command failed because the run's process limit was reached. */
  PROCESSES,
  /**
   * The command was ended by {@code SIGXFSZ}: it wrote or extended a file beyond {@link
   * LaunchSpec#maxFileBytes()}.
   */
  FILE_SIZE,
  /**
   * The writable roots grew by more than {@link LaunchSpec#maxWriteBytes()} and the backend ended
   * the command for it.
   */
  WRITE_BUDGET
}
