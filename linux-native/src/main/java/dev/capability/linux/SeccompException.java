package dev.capability.linux;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A seccomp filter that cannot be built, exported or installed. Unchecked, with a stable
 * {@link #code()}, like every exception of the project (this module depends on no other, so it
 * has its own type).
 */
public final class SeccompException extends RuntimeException {
  /** libseccomp cannot be loaded here (not installed, or JNA cannot load native code). */
  public static final String SECCOMP_UNAVAILABLE = "SECCOMP_UNAVAILABLE";

  /** A rule names a system call libseccomp does not know. */
  public static final String SECCOMP_UNKNOWN_SYSCALL = "SECCOMP_UNKNOWN_SYSCALL";

  /** libseccomp or the kernel refused a step: a rule, the export, or loading the filter. */
  public static final String SECCOMP_FAILED = "SECCOMP_FAILED";

  private static final long serialVersionUID = 1L;

  private final String code;

  public SeccompException(String code, String message) {
    super(message);
    this.code = Objects.requireNonNull(code, "code");
  }

  public SeccompException(String code, String message, @Nullable Throwable cause) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
  }

  /** The stable, machine-readable code, one of the constants of this class. */
  public String code() {
    return code;
  }
}
