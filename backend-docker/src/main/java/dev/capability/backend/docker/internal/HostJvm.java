package dev.capability.backend.docker.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Who launched a container: this machine (its boot id and this JVM's PID namespace, so that JVMs
 * in other containers or on other machines sharing one daemon are told apart) and this JVM (pid
 * and start time, so a reused pid is not mistaken for the launcher).
 *
 * @param host {@code <boot id>/<pid namespace>}
 * @param pid the JVM's pid
 * @param startMillis the JVM's start time in epoch milliseconds
 */
record HostJvm(String host, long pid, long startMillis) {
  private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");
  private static final Path PID_NAMESPACE = Path.of("/proc/self/ns/pid");

  /** This JVM. */
  static HostJvm current() {
    ProcessHandle self = ProcessHandle.current();
    return new HostJvm(
        currentHost(),
        self.pid(),
        startMillis(self).orElseThrow(() -> new IllegalStateException("no start time for this JVM")));
  }

  /** The label value naming the JVM: {@code <pid>:<start millis>}. */
  String jvmLabel() {
    return pid + ":" + startMillis;
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
      return ProcessHandle.of(pid)
          .filter(ProcessHandle::isAlive)
          .flatMap(HostJvm::startMillis)
          .map(s -> s == start)
          .orElse(false);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static Optional<Long> startMillis(ProcessHandle process) {
    return process.info().startInstant().map(Instant::toEpochMilli);
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
