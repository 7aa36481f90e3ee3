package dev.capability.kernel.api;

/** How an execution ended. Every state is an outcome, never an exception. */
public enum ExecutionStatus {
  /** The command ran and exited by itself; see the exit code. */
  COMPLETED,
  /** The kernel refused the command before launch; see the decision. */
  DENIED,
  /** The wall-clock bound passed and the whole process tree was ended. */
  TIMED_OUT,
  /** A stream exceeded its bound and the whole process tree was ended. */
  OUTPUT_LIMIT,
  /**
   * The command reached the backend's memory limit and the operating system's out-of-memory killer
   * ended a process of it; the exit code, when there is one, is what the command then exited with.
   */
  MEMORY_LIMIT,
  /**
   * A process of the command could not be created because the run's process limit was reached
   * (the backend's {@code PID_LIMIT}); the command may have ended by itself after the failed fork.
   */
  PROCESS_LIMIT,
  /**
   * The command was ended by {@code SIGXFSZ}: it wrote beyond the policy's {@code maxFileBytes};
   * the write was refused and the exit code is 153 (128 + 25).
   */
  FILE_SIZE_LIMIT,
  /**
   * The command's writable roots grew by more than the policy's {@code maxWriteBytes}, and the
   * whole process tree was ended.
   */
  WRITE_LIMIT,
  /** The command was authorized but could not be started. */
  LAUNCH_FAILED,
  /**
   * The command ran on a backend that ships the workspace ({@code REMOTE_WORKSPACE}), and the
   * writable roots it brought back were refused by the kernel's checks, or never brought back:
   * nothing of them reached the repository. The attestation's {@code workspace} says why; the exit
   * code, when there is one, is what the command exited with.
   */
  WORKSPACE_REFUSED
}
