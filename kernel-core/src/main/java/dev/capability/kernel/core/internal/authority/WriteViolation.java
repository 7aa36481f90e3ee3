package dev.capability.kernel.core.internal.authority;

import dev.capability.kernel.api.Decision;
import java.util.Objects;

/**
 * A changed path the command had no authority to write.
 *
 * @param path the repository-relative path as the audit reported it
 * @param decision the denial: its code ({@code WRITE_PROTECTED}, {@code WRITE_OUTSIDE_SCOPE},
 *     {@code PROJECT_READ_ONLY}, {@code PATH_INVALID}) and the layer and rule that refuse it
 */
public record WriteViolation(String path, Decision decision) {
  public WriteViolation {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(decision, "decision");
    if (decision.allowed()) {
      throw new IllegalArgumentException("a violation carries a denial, got " + decision);
    }
  }
}
