package dev.capability.discovery;

import dev.capability.kernel.api.CapabilityException;
import org.jspecify.annotations.Nullable;

/** An index document, URL or query was refused; {@link #code()} is one of {@link DiscoveryCodes}. */
public class IndexRefusedException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  public IndexRefusedException(String code, String message) {
    super(code, message);
  }

  public IndexRefusedException(String code, String message, @Nullable Throwable cause) {
    super(code, message, cause);
  }
}
