package dev.capability.kernel.api.backend;

import dev.capability.kernel.api.CapabilityException;

/** A backend could not start a command at all; the kernel reports it as a launch failure. */
public final class LaunchFailedException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  public static final String CODE = "LAUNCH_FAILED";

  public LaunchFailedException(String message, Throwable cause) {
    super(CODE, message, cause);
  }

  public LaunchFailedException(String message) {
    super(CODE, message);
  }
}
