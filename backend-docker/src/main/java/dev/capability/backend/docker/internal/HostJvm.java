package dev.capability.backend.docker.internal;

import dev.capability.backend.support.ProcStat;
import dev.capability.backend.support.ProcTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Who launched a container: this machine (its boot id and this JVM's PID namespace, so that JVMs
 * in other containers or on other machines sharing one daemon are told apart) and this JVM (pid
 * and start time, so a reused pid is not mistaken for the launcher).
 *
 * <p>The start time is the kernel's own, in clock ticks after boot ({@code /proc/<pid>/stat}),
 * never a wall-clock instant: the JDK derives {@code ProcessHandle.Info.startInstant()} from the
 * boot time each JVM reads once, and that moves when the wall clock is adjusted, so two JVMs could
 * disagree about a third one's start and a sweep would remove a live JVM's containers.
 *
 * @param host {@code <boot id>/<pid namespace>}
 * @param pid the JVM's pid
 * @param startTicks the JVM's start time in clock ticks after boot
 */
record HostJvm(String host, long pid, long startTicks) {
  private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");
  private static final Path PID_NAMESPACE = Path.of("/proc/self/ns/pid");

  /** This JVM. */
  static HostJvm current() {
    ProcessHandle self = ProcessHandle.current();
    return new HostJvm(
        currentHost(),
        self.pid(),
        ProcTable.read(self.pid()).map(ProcStat::startTicks)
            .orElseThrow(() -> new IllegalStateException("no start time for this JVM: /proc/" + self.pid() + "/stat cannot be read")));
  }

  /** The label value naming the JVM: {@code <pid>:<start ticks>}. */
  String jvmLabel() {
    return pid + ":" + startTicks;
  }

  /**
   * Whether the JVM named by {@code label}, on this host, is still running; false for a malformed
   * label, which no live JVM of this SDK writes.
   */
  static boolean alive(String label) {
    int colon = label.indexOf(':');
    if (colon <= 0) {
      return false;
    }
    try {
      long pid = Long.parseLong(label.substring(0, colon));
      long start = Long.parseLong(label.substring(colon + 1));
      return ProcTable.read(pid).filter(process -> process.startTicks() == start && !process.exited()).isPresent();
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static String currentHost() {
    String boot;
    try {
      boot = Files.readString(BOOT_ID).strip();
    } catch (IOException e) {
      boot = "unknown-boot";
    }
    String namespace;
    try {
      namespace = Files.readSymbolicLink(PID_NAMESPACE).toString();
    } catch (IOException | UnsupportedOperationException e) {
      namespace = "unknown-pidns";
    }
    return boot + "/" + namespace;
  }
}
