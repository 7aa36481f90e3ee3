package dev.capability.egress.internal;

import dev.capability.kernel.api.network.EgressConnection;
import java.util.ArrayList;
import java.util.List;

/** The session's attempts in the order their connections were accepted. */
final class SessionLog {
  private final List<Attempt> attempts = new ArrayList<>();

  synchronized Attempt begin() {
    Attempt attempt = new Attempt();
    attempts.add(attempt);
    return attempt;
  }

  /** Settles the attempts the session's end left undecided. */
  synchronized void settleOnShutdown() {
    attempts.forEach(Attempt::settleOnShutdown);
  }

  /** The decided attempts, in order; a connection that sent nothing and left is none. */
  synchronized List<EgressConnection> snapshot() {
    List<EgressConnection> connections = new ArrayList<>();
    for (Attempt attempt : attempts) {
      EgressConnection connection = attempt.snapshot();
      if (connection != null) {
        connections.add(connection);
      }
    }
    return List.copyOf(connections);
  }
}
