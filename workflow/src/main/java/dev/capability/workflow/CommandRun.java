package dev.capability.workflow;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One command a verification ran through the kernel.
 *
 * @param stage {@code acceptance}, {@code selective}, {@code fullSuite} or {@code critic}
 * @param command the command as the plan or contract wrote it
 * @param argv what the kernel split it into
 * @param status the kernel's execution status
 * @param exitCode the exit status, when it exited by itself
 * @param passed whether it ran to exit status 0 with no write violation
 * @param executionSequence where the store recorded its attestation
 * @param failure the normalized failure, when it did not pass
 */
public record CommandRun(
    String stage, String command, List<String> argv, String status, Optional<Integer> exitCode, boolean passed,
    long executionSequence, Optional<FailureRecord> failure) {
  public CommandRun {
    Objects.requireNonNull(stage, "stage");
    Objects.requireNonNull(command, "command");
    argv = List.copyOf(argv);
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(exitCode, "exitCode");
    Objects.requireNonNull(failure, "failure");
  }
}
