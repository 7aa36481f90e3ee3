package dev.capability.capability.runtime;

import dev.capability.kernel.api.CapabilityException;
import org.jspecify.annotations.Nullable;

/**
 * A capability package, its manifest or its contents was refused before anything from it was
 * extracted or loaded. {@link #code()} is one of the {@link CapabilityCodes}; the message names
 * the entry or field and what was wrong with it.
 */
public class PackageRefusedException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  public PackageRefusedException(String code, String message) {
    super(code, message);
  }

  public PackageRefusedException(String code, String message, @Nullable Throwable cause) {
    super(code, message, cause);
  }
}
