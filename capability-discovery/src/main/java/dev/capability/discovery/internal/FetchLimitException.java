package dev.capability.discovery.internal;

import dev.capability.discovery.IndexRefusedException;

/** A body was abandoned at a byte limit or the deadline. */
public final class FetchLimitException extends IndexRefusedException {
  private static final long serialVersionUID = 1L;

  FetchLimitException(String code, String message) {
    super(code, message);
  }
}
