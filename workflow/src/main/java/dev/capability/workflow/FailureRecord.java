package dev.capability.workflow;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A failed command, normalized so that the same failure seen twice is recognised.
 *
 * @param argv the command's argv
 * @param status the kernel's execution status ({@code COMPLETED}, {@code DENIED}, {@code TIMED_OUT}...)
 * @param exitCode the exit status, when the command exited by itself
 * @param excerpt the end of what it printed (standard error, else standard output), at most
 *     {@value #MAX_EXCERPT_CHARS} characters, with every line the secret scanner flagged replaced
 * @param fingerprint {@code sha256:<hex>} of the argv, status, exit status and the excerpt with
 *     numbers, hex runs and temporary paths masked: equal for the same failure in another run
 */
public record FailureRecord(List<String> argv, String status, Optional<Integer> exitCode, String excerpt, String fingerprint) {
  /** The most characters of output an excerpt keeps. */
  public static final int MAX_EXCERPT_CHARS = 2048;

  public FailureRecord {
    argv = List.copyOf(argv);
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(exitCode, "exitCode");
    Objects.requireNonNull(excerpt, "excerpt");
    Objects.requireNonNull(fingerprint, "fingerprint");
  }
}
