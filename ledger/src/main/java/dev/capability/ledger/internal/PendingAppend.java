package dev.capability.ledger.internal;

import dev.capability.ledger.Appended;
import dev.capability.ledger.LedgerException;

/**
 * One queued record of a group commit; completed by whichever thread commits it. The staged
 * fields belong to the thread holding the write lock; {@link #done} publishes the outcome.
 */
final class PendingAppend {
  final PreparedRecord record;
  Appended staged;
  LedgerException refusal;
  volatile boolean done;
  private Appended result;
  private LedgerException failure;

  PendingAppend(PreparedRecord record) {
    this.record = record;
  }

  void succeed(Appended appended) {
    result = appended;
    done = true;
  }

  void fail(LedgerException e) {
    failure = e;
    done = true;
  }

  /** The outcome, for the thread that queued the record; a failure is thrown with that thread's stack. */
  Appended result() {
    if (failure != null) {
      throw new LedgerException(failure.code(), failure.getMessage(), failure);
    }
    return result;
  }
}
