package dev.capability.kernel.core.internal.audit;

import java.util.Objects;

/**
 * Content the secret scanner did not fully see, so that "no findings" is never mistaken for "no
 * secrets".
 *
 * @param source the repository-relative path, or {@code stdout} / {@code stderr}
 * @param reason why
 */
public record ScanGap(String source, Reason reason) {

  /** Why content was not fully scanned. */
  public enum Reason {
    /** Only the first bytes, up to the per-file limit, were scanned. */
    TRUNCATED,
    /** The captured output was cut by the output limit; the rest never reached the kernel. */
    OUTPUT_TRUNCATED,
    /** The scan's total byte budget was spent before this file. */
    BUDGET_EXHAUSTED,
    /** The path is gone or is no longer a regular file. */
    NOT_A_FILE,
    /** The file could not be read. */
    UNREADABLE
  }

  public ScanGap {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(reason, "reason");
  }
}
