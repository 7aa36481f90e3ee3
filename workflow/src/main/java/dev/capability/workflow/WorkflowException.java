package dev.capability.workflow;

import dev.capability.kernel.api.CapabilityException;

/**
 * A work-plan operation was refused; nothing was recorded for it. {@link #code()} is one of
 * {@link WorkflowCodes}; the message says what was wrong and where (a JSON pointer, a command's
 * offset, a counterexample path).
 */
public final class WorkflowException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  public WorkflowException(String code, String message) {
    super(code, message);
  }

  public WorkflowException(String code, String message, Throwable cause) {
    super(code, message, cause);
  }
}
