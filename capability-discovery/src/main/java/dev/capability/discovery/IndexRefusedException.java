package dev.capability.discovery;

import dev.capability.kernel.api.CapabilityException;

/** An index document, URL or query was refused; {@link #code()} is one of {@link DiscoveryCodes}. */
public class IndexRefusedException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  public IndexRefusedException(String code, String message) {
    super(code, message);
  }

  public IndexRefusedException(String code, String message, Throwable cause) {
    super(code, message, cause);
  }
}
