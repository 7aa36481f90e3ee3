package dev.capability.kernel.core.internal.audit;

import dev.capability.kernel.api.CapabilityException;

/**
 * The repository audit could not look at the repository: the kernel must not launch (before the
 * command) or must not attest a clean audit (after it). {@link #code()} is one of the constants
 * here.
 */
public final class AuditException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  /** The repository path is not a directory, does not exist, or cannot be read. */
  public static final String REPOSITORY_INVALID = "REPOSITORY_INVALID";

  /**
   * Something inside the repository cannot be recorded faithfully: an unreadable entry, a name the
   * JVM cannot represent, a Git layout this audit does not understand, or a tree that changed
   * while it was being read.
   */
  public static final String SNAPSHOT_FAILED = "SNAPSHOT_FAILED";

  AuditException(String code, String message) {
    super(code, message);
  }

  AuditException(String code, String message, Throwable cause) {
    super(code, message, cause);
  }
}
