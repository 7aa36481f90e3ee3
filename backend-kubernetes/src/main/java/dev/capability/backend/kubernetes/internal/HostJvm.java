package dev.capability.backend.kubernetes.internal;

import dev.capability.backend.support.ProcStat;
import dev.capability.backend.support.ProcTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who launched a pod, in forms Kubernetes accepts as label values (at most 63 characters of
 * {@code [A-Za-z0-9._-]}): this machine (its boot id and this JVM's PID namespace, so that JVMs in
 * other containers or on other machines using one cluster are told apart) and this JVM (pid and
 * start time in clock ticks after boot, so a reused pid is not mistaken for the launcher), as the
 * Docker backend labels its containers.
 *
 * @param host {@code <boot id>.<pid namespace inode>}
 * @param pid the JVM's pid
 * @param startTicks the JVM's start time in clock ticks after boot
 */
record HostJvm(String host, long pid, long startTicks) {
  private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");
  private static final Path PID_NAMESPACE = Path.of("/proc/self/ns/pid");
  private static final Pattern NAMESPACE_INODE = Pattern.compile("pid:\\[([0-9]+)]");
  private static final Pattern LABEL_UNSAFE = Pattern.compile("[^a-z0-9-]");

  /** This JVM. */
  static HostJvm current() {
    ProcessHandle self = ProcessHandle.current();
    return new HostJvm(
        currentHost(),
        self.pid(),
        ProcTable.read(self.pid())
            .map(ProcStat::startTicks)
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "no start time for this JVM: /proc/" + self.pid() + "/stat cannot be read")));
  }

  /** The label value naming the JVM: {@code <pid>.<start ticks>}. */
  String jvmLabel() {
    return pid + "." + startTicks;
  }

  /**
   * Whether the JVM named by {@code label}, on this host, is still running; false for a malformed
   * label, which no live JVM of this SDK writes.
   */
  static boolean alive(String label) {
    int dot = label.indexOf('.');
    if (dot <= 0) {
      return false;
    }
    try {
      long pid = Long.parseLong(label.substring(0, dot));
      long start = Long.parseLong(label.substring(dot + 1));
      return ProcTable.read(pid)
          .filter(process -> process.startTicks() == start && !process.exited())
          .isPresent();
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static String currentHost() {
    String boot;
    try {
      boot = LABEL_UNSAFE.matcher(Files.readString(BOOT_ID).strip().toLowerCase(Locale.ROOT)).replaceAll("");
    } catch (IOException e) {
      boot = "unknown-boot";
    }
    String namespace = "unknown-pidns";
    try {
      Matcher inode = NAMESPACE_INODE.matcher(Files.readSymbolicLink(PID_NAMESPACE).toString());
      if (inode.matches()) {
        namespace = inode.group(1);
      }
    } catch (IOException | UnsupportedOperationException e) {
      // Kept as unknown: the boot id alone still tells machines apart.
    }
    return boot + "." + namespace;
  }
}
