package dev.capability.kernel.api;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Root of every exception the SDK throws on purpose: misuse, or infrastructure that cannot do
 * what was asked. Outcomes of running a command (a denial, a timeout, a non-zero exit) are never
 * exceptions; they are states of {@link ExecutionResult}.
 *
 * <p>{@link #code()} is stable and machine-readable; scripts and the CLI's {@code --json} output
 * depend on it. The message says what was wrong and what to do.
 */
public class CapabilityException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String code;

  public CapabilityException(String code, String message) {
    super(message);
    this.code = Objects.requireNonNull(code, "code");
  }

  public CapabilityException(String code, String message, @Nullable Throwable cause) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
  }

  /** The stable, machine-readable code, for example {@code SHELL_SYNTAX}. */
  public String code() {
    return code;
  }
}
