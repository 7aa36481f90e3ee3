package dev.capability.egress.internal;

import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.network.EgressConnection.Outcome;
import dev.capability.kernel.api.network.EgressRefusal;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * One client connection's attempt as it unfolds: its destination once read, its outcome once
 * decided, its byte counts while it relays. Written from the connection's event loop and the
 * resolver, read by {@link SessionLog#snapshot()} from any thread.
 */
final class Attempt {
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong received = new AtomicLong();
  private String protocol = "http";
  private String host = "";
  private int port;
  private @Nullable Outcome outcome;
  private @Nullable String reason;
  private @Nullable String address;
  private boolean sawBytes;

  synchronized void protocol(String protocol) {
    this.protocol = protocol;
  }

  synchronized void destination(String protocol, String host, int port) {
    this.protocol = protocol;
    this.host = host;
    this.port = port;
  }

  synchronized void address(String address) {
    this.address = address;
  }

  synchronized void sawBytes() {
    sawBytes = true;
  }

  synchronized boolean hasDestination() {
    return !host.isEmpty();
  }

  synchronized boolean isDecided() {
    return outcome != null;
  }

  /** Records the outcome unless one is already recorded; {@code reason} is null exactly for ALLOWED. */
  synchronized void decide(Outcome outcome, @Nullable String reason) {
    if (this.outcome == null) {
      this.outcome = outcome;
      this.reason = reason;
    }
  }

  /** An allowed connection cut short because the run's byte budget is spent. */
  synchronized void cutByBudget() {
    if (outcome == Outcome.ALLOWED) {
      outcome = Outcome.REFUSED;
      reason = EgressRefusal.LIMIT;
    }
  }

  /**
   * Settles an attempt whose client went away before it named a destination: one that sent part
   * of a request was malformed, one that sent nothing stays undecided (it was no attempt, and
   * {@link SessionLog} leaves it out). One that named a destination is decided by its verdict,
   * which comes whether or not the client is still there.
   */
  synchronized void settleOnClose() {
    if (outcome == null && host.isEmpty() && sawBytes) {
      decide(Outcome.REFUSED, EgressRefusal.MALFORMED);
    }
  }

  /**
   * Settles an attempt still undecided when the session closes: one that named a destination was
   * never connected.
   */
  synchronized void settleOnShutdown() {
    if (outcome == null && !host.isEmpty()) {
      decide(Outcome.FAILED, EgressRefusal.CONNECT_FAILED);
    }
  }

  void addSent(long bytes) {
    sent.addAndGet(bytes);
  }

  void addReceived(long bytes) {
    received.addAndGet(bytes);
  }

  /**
   * Records a verdict's address and, for a refusal or failure, its outcome; an allowed verdict's
   * outcome is recorded by whoever connects. True when the verdict decided the attempt.
   */
  boolean record(Verdict verdict) {
    String addressText = verdict.addressText();
    if (addressText != null) {
      address(addressText);
    }
    String why = verdict.reason();
    if (why != null) {
      decide(verdict.outcome(), why);
    }
    return why != null;
  }

  /** The attempt as recorded, or null while it is undecided. */
  synchronized @Nullable EgressConnection snapshot() {
    if (outcome == null) {
      return null;
    }
    return new EgressConnection(protocol, host, port, outcome, reason, address, sent.get(), received.get());
  }
}
