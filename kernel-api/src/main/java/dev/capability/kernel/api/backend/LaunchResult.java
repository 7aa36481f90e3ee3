package dev.capability.kernel.api.backend;

import dev.capability.kernel.api.CapturedOutput;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;

/**
 * What happened to one launched command.
 *
 * @param exitCode the exit status; a command ended by signal N reports 128 + N; empty when the
 *     status could not be observed
 * @param timedOut true when the wall-clock bound ended the command
 * @param outputLimitHit true when a stream exceeded its bound and the command was ended for it
 * @param boundsHit the per-run resource bounds the command reached; empty when it reached none
 * @param stdout what was kept of stdout
 * @param stderr what was kept of stderr
 * @param startedAt when the process started
 * @param finishedAt when the last of the process and its output ended
 * @param termination how the process tree was ended when the kernel ended it, for example
 *     {@code session-signal}; {@code none} when it exited by itself
 */
public record LaunchResult(
    OptionalInt exitCode,
    boolean timedOut,
    boolean outputLimitHit,
    Set<ResourceBound> boundsHit,
    CapturedOutput stdout,
    CapturedOutput stderr,
    Instant startedAt,
    Instant finishedAt,
    String termination) {

  public LaunchResult {
    Objects.requireNonNull(exitCode, "exitCode");
    boundsHit = Set.copyOf(Objects.requireNonNull(boundsHit, "boundsHit"));
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(finishedAt, "finishedAt");
    Objects.requireNonNull(termination, "termination");
  }

  /**
   * A result that reached at most the memory bound.
   *
   * @param memoryLimitHit true when the operating system's out-of-memory killer ended a process of
   *     the command because the backend's memory limit was reached
   */
  public LaunchResult(
      OptionalInt exitCode,
      boolean timedOut,
      boolean outputLimitHit,
      boolean memoryLimitHit,
      CapturedOutput stdout,
      CapturedOutput stderr,
      Instant startedAt,
      Instant finishedAt,
      String termination) {
    this(
        exitCode,
        timedOut,
        outputLimitHit,
        memoryLimitHit ? EnumSet.of(ResourceBound.MEMORY) : Set.of(),
        stdout,
        stderr,
        startedAt,
        finishedAt,
        termination);
  }

  /** A result that reached none of the resource bounds. */
  public LaunchResult(
      OptionalInt exitCode,
      boolean timedOut,
      boolean outputLimitHit,
      CapturedOutput stdout,
      CapturedOutput stderr,
      Instant startedAt,
      Instant finishedAt,
      String termination) {
    this(exitCode, timedOut, outputLimitHit, Set.of(), stdout, stderr, startedAt, finishedAt, termination);
  }

  /**
   * True when the operating system's out-of-memory killer ended a process of the command because
   * the backend's memory limit was reached.
   */
  public boolean memoryLimitHit() {
    return boundsHit.contains(ResourceBound.MEMORY);
  }

  /** True when the command reached {@code bound}. */
  public boolean hit(ResourceBound bound) {
    return boundsHit.contains(bound);
  }
}
