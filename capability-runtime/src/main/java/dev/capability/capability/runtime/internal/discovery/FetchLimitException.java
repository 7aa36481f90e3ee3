package dev.capability.capability.runtime.internal.discovery;

import dev.capability.capability.runtime.discovery.IndexRefusedException;

/** A body was abandoned at a byte limit or the deadline; {@link #bytesRead()} counts what was read. */
public final class FetchLimitException extends IndexRefusedException {
  private static final long serialVersionUID = 1L;
  private final long bytesRead;

  FetchLimitException(String code, String message, long bytesRead) {
    super(code, message);
    this.bytesRead = bytesRead;
  }

  public long bytesRead() {
    return bytesRead;
  }
}
