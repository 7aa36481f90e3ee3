package dev.capability.kernel.api;

import org.jspecify.annotations.Nullable;

/**
 * No execution backend could be provided as asked: an unknown id, two providers with one id, a
 * backend whose probe failed on this machine, one that lacks a required isolation capability
 * (code {@code ISOLATION_UNAVAILABLE}), or one older than the policy's minimum versions (code
 * {@code BACKEND_VERSION_TOO_OLD}). Raised before anything is launched.
 */
public final class BackendUnavailableException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  public static final String UNKNOWN = "BACKEND_UNKNOWN";
  public static final String DUPLICATE = "BACKEND_DUPLICATE";
  public static final String UNAVAILABLE = "BACKEND_UNAVAILABLE";
  public static final String ISOLATION_UNAVAILABLE = "ISOLATION_UNAVAILABLE";
  /**
   * A component that enforces the chosen backend reports a version lower than the policy's
   * {@code backendVersions} minimum for it, or reports none.
   */
  public static final String VERSION_TOO_OLD = "BACKEND_VERSION_TOO_OLD";

  public BackendUnavailableException(String code, String message) {
    super(code, message);
  }

  public BackendUnavailableException(String code, String message, @Nullable Throwable cause) {
    super(code, message, cause);
  }
}
