package dev.capability.backend.process.internal;

import java.time.Duration;
import java.util.Objects;

/** A point on the monotonic clock, saturating so that very long durations never overflow. */
final class Deadline {
  private static final long MAX_NANOS = Duration.ofDays(365L * 100).toNanos();

  private final long at;

  private Deadline(long at) {
    this.at = at;
  }

  /** The deadline {@code duration} from now; durations beyond a century count as a century. */
  static Deadline after(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    long nanos = duration.isNegative() ? 0 : Math.min(MAX_NANOS, saturatedNanos(duration));
    return new Deadline(System.nanoTime() + nanos);
  }

  /** Nanoseconds left, zero once passed. */
  long remainingNanos() {
    return Math.max(0, at - System.nanoTime());
  }

  boolean passed() {
    return remainingNanos() == 0;
  }

  private static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }
}
