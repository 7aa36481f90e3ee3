package dev.capability.evaluator;

import dev.capability.kernel.api.CapabilityException;
import org.jspecify.annotations.Nullable;

/**
 * An evaluation could not be configured or run. {@link #code()} is one of {@link EvaluatorCodes};
 * the message names what was wrong and where (the configuration's member, the candidate, the path).
 * A command that fails, times out or is denied is never this exception: it is a cell of the report.
 */
public final class EvaluationException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  public EvaluationException(String code, String message) {
    super(code, message);
  }

  public EvaluationException(String code, String message, @Nullable Throwable cause) {
    super(code, message, cause);
  }
}
