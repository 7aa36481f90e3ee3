package dev.capability.kernel.api;

/**
 * No execution backend could be provided as asked: an unknown id, two providers with one id, a
 * backend whose probe failed on this machine, or one that lacks a required isolation capability
 * (code {@code ISOLATION_UNAVAILABLE}). Raised before anything is launched.
 */
public final class BackendUnavailableException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  public static final String UNKNOWN = "BACKEND_UNKNOWN";
  public static final String DUPLICATE = "BACKEND_DUPLICATE";
  public static final String UNAVAILABLE = "BACKEND_UNAVAILABLE";
  public static final String ISOLATION_UNAVAILABLE = "ISOLATION_UNAVAILABLE";

  public BackendUnavailableException(String code, String message) {
    super(code, message);
  }

  public BackendUnavailableException(String code, String message, Throwable cause) {
    super(code, message, cause);
  }
}
