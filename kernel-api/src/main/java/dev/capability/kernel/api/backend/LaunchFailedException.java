package dev.capability.kernel.api.backend;

import dev.capability.kernel.api.CapabilityException;
import org.jspecify.annotations.Nullable;

/** A backend could not start a command at all; the kernel reports it as a launch failure. */
public final class LaunchFailedException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  public static final String CODE = "LAUNCH_FAILED";

  /**
   * The command's arguments and environment are more than the backend can hand to it (the
   * operating system's limit on an {@code execve}); refused before anything was started.
   */
  public static final String ARGUMENT_LIST_TOO_LONG = "ARGUMENT_LIST_TOO_LONG";

  /**
   * A path the backend would bind into the sandbox lies below a directory that another party (a
   * uid other than root and the kernel's, or the sandbox's own uid) can write: it could swap a
   * component for a symlink between the backend's check and the moment the path is resolved.
   */
  public static final String BIND_SOURCE_SWAPPABLE = "BIND_SOURCE_SWAPPABLE";

  /**
   * A path the backend would bind into the sandbox passed its checks, but is, or passes through, a
   * symlink (or is gone) when the backend opens it to bind it by descriptor a moment later:
   * something changed it in between, such as a concurrent run over the same writable root.
   */
  public static final String BIND_SOURCE_CHANGED = "BIND_SOURCE_CHANGED";

  private LaunchFailedException(String code, String message) {
    super(code, message);
  }

  /** A launch failure with a more specific code than {@link #CODE}, such as {@link #ARGUMENT_LIST_TOO_LONG}. */
  public static LaunchFailedException withCode(String code, String message) {
    return new LaunchFailedException(code, message);
  }

  public LaunchFailedException(String message, @Nullable Throwable cause) {
    super(CODE, message, cause);
  }

  public LaunchFailedException(String message) {
    super(CODE, message);
  }
}
