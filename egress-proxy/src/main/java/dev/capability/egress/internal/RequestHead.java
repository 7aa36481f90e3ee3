package dev.capability.egress.internal;

import dev.capability.linux.NativeCallException;
import dev.capability.linux.TcpConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The rewritten head of a plain request, written to its destination by whichever thread serves it. */
final class RequestHead {
  private static final Logger LOG = LoggerFactory.getLogger(RequestHead.class);

  /** How writing a head ended. */
  enum Sent {
    SENT,
    /** The session's byte budget could not take it; nothing was written. */
    BUDGET_SPENT,
    /** The destination took no request. */
    FAILED
  }

  private RequestHead() {}

  /**
   * Writes {@code head} to {@code destination}, counted against the session's byte budget and as
   * sent by {@code attempt}; unless it was sent, {@code destination} is closed.
   */
  static Sent send(SessionContext session, Attempt attempt, TcpConnection destination, byte[] head) {
    if (!session.budget.spend(head.length)) {
      destination.close();
      return Sent.BUDGET_SPENT;
    }
    attempt.addSent(head.length);
    try {
      destination.writeFully(head);
      return Sent.SENT;
    } catch (NativeCallException e) {
      LOG.debug("egress destination took no request: {}", e.getMessage());
      destination.close();
      return Sent.FAILED;
    }
  }
}
