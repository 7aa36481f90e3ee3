package dev.capability.kernel.api;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The outcome of one {@code CommandKernel.execute}: a status, the decision, the exit code when
 * there is one, what was kept of the output, and the attestation.
 */
public record ExecutionResult(
    ExecutionStatus status,
    Decision decision,
    List<String> argv,
    OptionalInt exitCode,
    CapturedOutput stdout,
    CapturedOutput stderr,
    Attestation attestation,
    String failureMessage) {

  public ExecutionResult {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(decision, "decision");
    argv = List.copyOf(Objects.requireNonNull(argv, "argv"));
    Objects.requireNonNull(exitCode, "exitCode");
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    Objects.requireNonNull(attestation, "attestation");
  }

  /** True when the command ran and exited 0. */
  public boolean succeeded() {
    return status == ExecutionStatus.COMPLETED && exitCode.isPresent() && exitCode.getAsInt() == 0;
  }
}
