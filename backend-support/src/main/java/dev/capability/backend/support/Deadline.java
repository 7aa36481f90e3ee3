package dev.capability.backend.support;

import java.time.Duration;
import java.util.Objects;

/** A point on the monotonic clock; durations beyond a century count as a century. */
public final class Deadline {
  private static final long CENTURY_NANOS = Duration.ofDays(36_500).toNanos();

  private final long at;

  private Deadline(long at) {
    this.at = at;
  }

  public static Deadline after(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    long nanos;
    if (duration.isNegative()) {
      nanos = 0;
    } else if (duration.compareTo(Duration.ofNanos(CENTURY_NANOS)) > 0) {
      nanos = CENTURY_NANOS;
    } else {
      nanos = duration.toNanos();
    }
    return new Deadline(System.nanoTime() + nanos);
  }

  /** Nanoseconds left; zero once passed. */
  public long remainingNanos() {
    return Math.max(0, at - System.nanoTime());
  }

  /** Whether no time is left. */
  public boolean passed() {
    return remainingNanos() == 0;
  }
}
