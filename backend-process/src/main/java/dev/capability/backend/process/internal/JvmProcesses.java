package dev.capability.backend.process.internal;

import dev.capability.backend.support.ProcStat;
import dev.capability.backend.support.ProcTable;
import java.util.HashSet;
import java.util.Set;

/**
 * This JVM's process, its ancestors and its session: what termination must never signal. Taken per
 * launch, since an ancestor that exits reparents the JVM.
 *
 * @param pids this JVM's pid and every ancestor's
 * @param session this JVM's session id
 */
record JvmProcesses(Set<Long> pids, long session) {

  JvmProcesses {
    pids = Set.copyOf(pids);
  }

  /** Reads this JVM's lineage from {@code /proc}. */
  static JvmProcesses current() {
    long self = ProcessHandle.current().pid();
    ProcStat stat =
        ProcTable.read(self)
            .orElseThrow(() -> new IllegalStateException("cannot read /proc/" + self + "/stat"));
    Set<Long> lineage = new HashSet<>();
    lineage.add(self);
    long parent = stat.ppid();
    while (parent > 0 && lineage.add(parent)) {
      parent = ProcTable.read(parent).map(ProcStat::ppid).orElse(0L);
    }
    return new JvmProcesses(lineage, stat.session());
  }

  boolean contains(long pid) {
    return pids.contains(pid);
  }
}
