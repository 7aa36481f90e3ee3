package dev.capability.egress.internal;

import dev.capability.kernel.api.network.EgressLimits;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The session's counters against its {@link EgressLimits}. */
final class SessionBudget {
  private final EgressLimits limits;
  private final AtomicInteger accepted = new AtomicInteger();
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicLong bytes = new AtomicLong();

  SessionBudget(EgressLimits limits) {
    this.limits = limits;
  }

  /** Counts a new client connection; whether it is within the attempt and concurrency limits. */
  boolean admit() {
    int count = accepted.incrementAndGet();
    int concurrent = open.incrementAndGet();
    return count <= limits.maxConnections() && concurrent <= limits.maxConcurrentConnections();
  }

  /** Whether the attempts are spent: the listener stops accepting once one more was refused. */
  boolean attemptsSpent() {
    return accepted.get() > limits.maxConnections();
  }

  /** A client connection closed. */
  void release() {
    open.decrementAndGet();
  }

  /** Takes {@code count} relayed bytes from the budget; false, taking nothing, when they do not fit. */
  boolean spend(long count) {
    while (true) {
      long current = bytes.get();
      if (current + count > limits.maxBytes()) {
        return false;
      }
      if (bytes.compareAndSet(current, current + count)) {
        return true;
      }
    }
  }

  boolean bytesSpent() {
    return bytes.get() >= limits.maxBytes();
  }
}
