package dev.capability.evaluator;

import dev.capability.kernel.api.ExecutionStatus;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one command did on one candidate.
 *
 * @param command the command's name
 * @param argv the command as it was given to the kernel
 * @param outcome how the report colours it
 * @param status the kernel's status; null when the command was not run
 * @param exitCode the exit code, when the command ran and one was seen
 * @param duration how long the kernel took, from request to result
 * @param stdoutSha256 the SHA-256 of the standard output kept, as the attestation records it; empty when not run
 * @param stderrSha256 the SHA-256 of the standard error kept; empty when not run
 * @param stdoutLog the file holding the standard output kept, relative to the output directory; empty when not run
 * @param stderrLog the file holding the standard error kept, relative to the output directory; empty when not run
 * @param failureExcerpt the end of the standard error (or of the output when the error stream is
 *     empty), or the denial's message; empty when the command passed
 * @param message the kernel's decision code and message for a denial, its failure message
 *     otherwise, or why the command did not run
 * @param attestation the kernel's attestation as JSON (plain maps, lists, strings, numbers and
 *     booleans); null when the command was not run
 */
public record CellResult(
    String command,
    List<String> argv,
    CellOutcome outcome,
    @Nullable ExecutionStatus status,
    @Nullable Integer exitCode,
    Duration duration,
    String stdoutSha256,
    String stderrSha256,
    String stdoutLog,
    String stderrLog,
    String failureExcerpt,
    String message,
    @Nullable Map<String, @Nullable Object> attestation) {

  public CellResult {
    Objects.requireNonNull(command, "command");
    argv = List.copyOf(argv);
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(stdoutSha256, "stdoutSha256");
    Objects.requireNonNull(stderrSha256, "stderrSha256");
    Objects.requireNonNull(stdoutLog, "stdoutLog");
    Objects.requireNonNull(stderrLog, "stderrLog");
    Objects.requireNonNull(failureExcerpt, "failureExcerpt");
    Objects.requireNonNull(message, "message");
    attestation = attestation == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(attestation));
    if ((status == null) != (outcome == CellOutcome.NOT_RUN)) {
      throw new IllegalArgumentException("a cell has a kernel status exactly when it was run: " + outcome + ", " + status);
    }
  }

  /** True when the command ran and exited 0. */
  public boolean passed() {
    return outcome == CellOutcome.PASSED;
  }
}
