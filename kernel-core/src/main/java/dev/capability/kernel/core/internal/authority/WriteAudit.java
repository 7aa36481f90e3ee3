package dev.capability.kernel.core.internal.authority;

import dev.capability.kernel.api.Decision;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Decides, after a command ran, which of the paths it changed it had no authority to write.
 * Every kind of change counts as a write: a created, modified, deleted or retyped file, directory
 * or symbolic link, and a mode change.
 */
public final class WriteAudit {
  private WriteAudit() {}

  /**
   * The violations among {@code changedPaths}, sorted by path, each path once. A path that is not
   * a valid repository-relative path is a violation ({@code PATH_INVALID}), never skipped.
   */
  public static List<WriteViolation> violations(EffectiveAuthority authority, List<String> changedPaths) {
    Objects.requireNonNull(authority, "authority");
    Objects.requireNonNull(changedPaths, "changedPaths");
    List<WriteViolation> violations = new ArrayList<>();
    for (String path : new TreeSet<>(changedPaths)) {
      Decision decision = authority.writable(path);
      if (!decision.allowed()) {
        violations.add(new WriteViolation(path, decision));
      }
    }
    return violations;
  }
}
