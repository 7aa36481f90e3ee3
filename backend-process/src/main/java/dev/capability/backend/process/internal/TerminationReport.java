package dev.capability.backend.process.internal;

import java.util.List;

/**
 * What one termination did.
 *
 * @param signalled pids that were sent TERM or KILL, in the order first signalled
 * @param survivors pids of the tree still alive when termination gave up; normally empty
 */
record TerminationReport(List<Long> signalled, List<Long> survivors) {

  TerminationReport {
    signalled = List.copyOf(signalled);
    survivors = List.copyOf(survivors);
  }

  boolean signalledAny() {
    return !signalled.isEmpty();
  }
}
