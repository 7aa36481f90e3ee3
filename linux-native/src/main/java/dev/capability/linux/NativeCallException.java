package dev.capability.linux;

import java.util.Objects;

/**
 * A native call failed, or cannot be made on this host. Unchecked, with a stable {@link #code()}
 * that callers map to their own error codes.
 */
public final class NativeCallException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** JNA or the C library cannot be loaded on this host. */
  public static final String NATIVE_UNAVAILABLE = "NATIVE_UNAVAILABLE";

  /** A path passes through, or ends in, a symbolic link, so it is not opened. */
  public static final String PATH_HAS_SYMLINK = "PATH_HAS_SYMLINK";

  /** A path's component is missing, or is neither a directory nor a regular file. */
  public static final String PATH_NOT_OPENED = "PATH_NOT_OPENED";

  /** A directory's listing, or an entry's status or link target, could not be read. */
  public static final String DIRECTORY_NOT_READ = "DIRECTORY_NOT_READ";

  /** The child process could not be started. */
  public static final String SPAWN_FAILED = "SPAWN_FAILED";

  /** Sockets could not be set up for splicing (a descriptor, a pipe). */
  public static final String SPLICE_FAILED = "SPLICE_FAILED";

  /** A TCP connection could not be made: no answer within the time, unreachable, or a write failed. */
  public static final String CONNECT_FAILED = "CONNECT_FAILED";

  /** The destination answered a connection attempt with a reset: nothing listens there. */
  public static final String CONNECT_REFUSED = "CONNECT_REFUSED";

  /** A Unix socket could not be bound, listened on, or accepted from. */
  public static final String LISTEN_FAILED = "LISTEN_FAILED";

  private final String code;

  /**
   * @param code one of this class's codes
   * @param message what failed and what to do
   */
  public NativeCallException(String code, String message) {
    super(message);
    this.code = Objects.requireNonNull(code, "code");
  }

  /** The stable machine-readable code. */
  public String code() {
    return code;
  }
}
