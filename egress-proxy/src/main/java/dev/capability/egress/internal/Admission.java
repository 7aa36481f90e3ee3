package dev.capability.egress.internal;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A client connection counted in when it was accepted: its attempt, in the log's order, and
 * whether the connection limits let it in. {@link #release()} counts it out when it closes.
 */
final class Admission {
  private final SessionContext session;
  private final Attempt attempt;
  private final boolean withinLimits;
  private final long acceptedNanos;
  private final AtomicBoolean released = new AtomicBoolean();

  private Admission(SessionContext session, Attempt attempt, boolean withinLimits, long acceptedNanos) {
    this.session = session;
    this.attempt = attempt;
    this.withinLimits = withinLimits;
    this.acceptedNanos = acceptedNanos;
  }

  /** Counts a connection just accepted; {@code stopAccepting} runs when the attempts are spent. */
  static Admission admit(SessionContext session, Runnable stopAccepting) {
    Attempt attempt = session.log.begin();
    boolean withinLimits = session.budget.admit();
    if (session.budget.attemptsSpent()) {
      stopAccepting.run();
    }
    return new Admission(session, attempt, withinLimits, System.nanoTime());
  }

  Attempt attempt() {
    return attempt;
  }

  boolean withinLimits() {
    return withinLimits;
  }

  /** When the connection was accepted ({@link System#nanoTime()}): the handshake timeout counts from it. */
  long acceptedNanos() {
    return acceptedNanos;
  }

  /**
   * The connection closed: it no longer counts against the concurrent connections, and an attempt
   * left undecided is settled ({@link Attempt#settleOnClose()}). Once; later calls do nothing.
   */
  void release() {
    if (released.compareAndSet(false, true)) {
      session.budget.release();
      attempt.settleOnClose();
    }
  }
}
