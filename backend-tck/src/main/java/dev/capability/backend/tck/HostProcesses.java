package dev.capability.backend.tck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** Finds and ends this machine's processes by a marker in their environment or arguments. */
final class HostProcesses {
  private static final Path PROC = Path.of("/proc");

  /** How long killed processes get to disappear before cleanup gives up on them. */
  private static final long GONE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

  private HostProcesses() {}

  /**
   * A live process that carries a marker.
   *
   * @param pid its pid
   * @param command its arguments, NUL replaced by spaces
   */
  record Found(long pid, String command) {
    @Override
    public String toString() {
      return pid + " (" + command + ")";
    }
  }

  /** Live, non-zombie processes other than this JVM whose environ or cmdline contains marker. */
  static List<Found> markedWith(String marker) {
    byte[] needle = marker.getBytes(StandardCharsets.UTF_8);
    long self = ProcessHandle.current().pid();
    List<Found> found = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, "[0-9]*")) {
      for (Path entry : entries) {
        long pid = Long.parseLong(entry.getFileName().toString());
        if (pid == self || isZombieOrGone(entry)) {
          continue;
        }
        Optional<byte[]> cmdline = read(entry.resolve("cmdline"));
        boolean marked =
            cmdline.filter(c -> contains(c, needle)).isPresent()
                || read(entry.resolve("environ")).filter(e -> contains(e, needle)).isPresent();
        if (marked && !isZombieOrGone(entry)) {
          found.add(new Found(pid, cmdline.map(HostProcesses::printable).orElse("?")));
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot list /proc to look for leaked processes", e);
    }
    return found;
  }

  /** KILLs every process {@link #markedWith} finds, until none is found or the wait runs out. */
  static void killMarkedWith(String marker) {
    long deadline = System.nanoTime() + GONE_WAIT_NANOS;
    List<Found> left = markedWith(marker);
    while (!left.isEmpty() && System.nanoTime() - deadline < 0) {
      left.forEach(p -> ProcessHandle.of(p.pid()).ifPresent(ProcessHandle::destroyForcibly));
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
      left = markedWith(marker);
    }
    if (!left.isEmpty()) {
      throw new IllegalStateException("cannot end processes marked " + marker + ": " + left);
    }
  }

  private static boolean isZombieOrGone(Path entry) {
    Optional<byte[]> stat = read(entry.resolve("stat"));
    if (stat.isEmpty()) {
      return true;
    }
    String text = new String(stat.get(), StandardCharsets.UTF_8);
    // The state follows the command name, which may itself contain ") ".
    int end = text.lastIndexOf(") ");
    return end < 0 || end + 2 >= text.length() || text.charAt(end + 2) == 'Z';
  }

  private static Optional<byte[]> read(Path file) {
    try {
      return Optional.of(Files.readAllBytes(file));
    } catch (IOException | SecurityException e) {
      // The process ended, or its environment belongs to a user this JVM cannot read.
      return Optional.empty();
    }
  }

  static boolean contains(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static String printable(byte[] cmdline) {
    return new String(cmdline, StandardCharsets.UTF_8).replace('\0', ' ').strip();
  }
}
