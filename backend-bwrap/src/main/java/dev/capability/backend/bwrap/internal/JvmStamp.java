package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.ProcStat;
import dev.capability.backend.support.ProcTable;
import java.util.UUID;

/**
 * Names of things a run leaves on the host (journal files, run cgroups) that say which JVM made
 * them: {@code PREFIX<pid>-<start ticks>-<uuid>}. A later JVM removes what a dead one left, and
 * never what a live one still uses: the pid alone could have been reused, the pid with the
 * process's start time cannot. The start time is the kernel's, in clock ticks after boot, which
 * every JVM reads the same; the JDK's {@code startInstant()} rests on a boot time each JVM reads
 * once and that follows wall-clock adjustments, so two JVMs could disagree about a live third.
 */
final class JvmStamp {
  private JvmStamp() {}

  /** A fresh name for this JVM. */
  static String name(String prefix) {
    ProcessHandle self = ProcessHandle.current();
    long started = ProcTable.read(self.pid()).map(ProcStat::startTicks).orElse(0L);
    return prefix + self.pid() + "-" + started + "-" + UUID.randomUUID();
  }

  /**
   * False only when the JVM named in {@code name} is certainly gone; a name of another form, or a
   * process whose start time cannot be read, counts as alive.
   */
  static boolean ownerAlive(String name, String prefix) {
    String[] parts = name.substring(prefix.length()).split("-", 3);
    long pid;
    long started;
    try {
      pid = Long.parseLong(parts[0]);
      started = Long.parseLong(parts[1]);
    } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
      return true;
    }
    if (started == 0) {
      return ProcTable.read(pid).filter(process -> !process.exited()).isPresent();
    }
    return ProcTable.read(pid).filter(process -> process.startTicks() == started && !process.exited()).isPresent();
  }
}
