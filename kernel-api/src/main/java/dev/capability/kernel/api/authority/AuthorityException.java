package dev.capability.kernel.api.authority;

import dev.capability.kernel.api.CapabilityException;
import org.jspecify.annotations.Nullable;

/**
 * An authority layer, a write scope or a tool configuration could not be loaded or is not
 * acceptable. Nothing runs under authority that failed to load; {@link #code()} is one of
 * {@link AuthorityCodes}.
 */
public final class AuthorityException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  public AuthorityException(String code, String message) {
    super(code, message);
  }

  public AuthorityException(String code, String message, @Nullable Throwable cause) {
    super(code, message, cause);
  }
}
