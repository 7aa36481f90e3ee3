package dev.capability.kernel.api;

import org.jspecify.annotations.Nullable;

/**
 * An execution policy could not be loaded or is invalid. The kernel never falls back to a weaker
 * policy: a host that gets this exception must not run anything until the policy is fixed.
 * {@link #code()} names the rule that failed, for example {@code POLICY_FILE_WRITABLE}.
 */
public final class PolicyException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  public PolicyException(String code, String message) {
    super(code, message);
  }

  public PolicyException(String code, String message, @Nullable Throwable cause) {
    super(code, message, cause);
  }
}
