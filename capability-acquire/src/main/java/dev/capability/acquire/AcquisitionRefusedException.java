package dev.capability.acquire;

import dev.capability.kernel.api.CapabilityException;
import org.jspecify.annotations.Nullable;

/**
 * Acquisition could not start or could not finish: malformed coordinates, an unusable source, a
 * download over its limit, an invalid keyring or trust policy. {@link #code()} is one of the
 * {@link AcquisitionCodes}. Nothing is left in the store when this is thrown.
 */
public class AcquisitionRefusedException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  public AcquisitionRefusedException(String code, String message) {
    super(code, message);
  }

  public AcquisitionRefusedException(String code, String message, @Nullable Throwable cause) {
    super(code, message, cause);
  }
}
