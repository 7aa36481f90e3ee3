package dev.capability.backend.bwrap.internal;

import java.util.UUID;

/**
 * Names of things a run leaves on the host (journal files, run cgroups) that say which JVM made
 * them: {@code PREFIX<pid>-<start millis>-<uuid>}. A later JVM removes what a dead one left, and
 * never what a live one still uses: the pid alone could have been reused, the pid with the
 * process's start time cannot.
 */
final class JvmStamp {
  private JvmStamp() {}

  /** A fresh name for this JVM. */
  static String name(String prefix) {
    ProcessHandle self = ProcessHandle.current();
    long started = self.info().startInstant().map(i -> i.toEpochMilli()).orElse(0L);
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
    return ProcessHandle.of(pid)
        .map(handle -> started == 0 || handle.info().startInstant().map(i -> i.toEpochMilli() == started).orElse(true))
        .orElse(false);
  }
}
