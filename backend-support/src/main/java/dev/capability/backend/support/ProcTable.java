package dev.capability.backend.support;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The host's process table as seen in {@code /proc}. Processes come and go while it is read, so a
 * process that vanishes between listing and reading is simply absent from the answer.
 */
public final class ProcTable {
  private static final Path PROC = Path.of("/proc");
  private static final int STAT_BUFFER_BYTES = 4096;

  private ProcTable() {}

  /** True when {@code /proc} is mounted and this process's own stat line can be parsed. */
  public static boolean available() {
    return read(ProcessHandle.current().pid()).isPresent();
  }

  /** The stat line of {@code pid}, if that process (or its zombie) exists. */
  public static Optional<ProcStat> read(long pid) {
    return read(Long.toString(pid), new byte[STAT_BUFFER_BYTES]);
  }

  private static Optional<ProcStat> read(String pid, byte[] buffer) {
    // A stat line is short (a 16-byte name and 52 numbers); one read into a small buffer costs
    // a third less than Files.readAllBytes, and ending a process tree reads every process's line.
    try (FileInputStream in = new FileInputStream("/proc/" + pid + "/stat")) {
      int length = 0;
      int read;
      // The line ends with a newline; stopping there saves the read that would only find the end.
      while ((length == 0 || buffer[length - 1] != '\n')
          && length < buffer.length
          && (read = in.read(buffer, length, buffer.length - length)) > 0) {
        length += read;
      }
      return Optional.of(ProcStat.parse(new String(buffer, 0, length, StandardCharsets.ISO_8859_1)));
    } catch (IOException | IllegalArgumentException e) {
      // Gone between listing and reading, or /proc is not what this code expects: either way
      // there is no process to report.
      return Optional.empty();
    }
  }

  /** True while {@code process} exists and has not exited. */
  public static boolean alive(ProcStat process) {
    return read(process.pid()).filter(p -> p.sameProcessAs(process) && !p.exited()).isPresent();
  }

  /**
   * Every process visible in {@code /proc}, zombies included; not an atomic snapshot.
   *
   * @throws UncheckedIOException when {@code /proc} cannot be listed
   */
  public static List<ProcStat> snapshot() {
    String[] names = PROC.toFile().list();
    if (names == null) {
      throw new UncheckedIOException(new IOException("cannot list /proc"));
    }
    List<ProcStat> all = new ArrayList<>(names.length);
    byte[] buffer = new byte[STAT_BUFFER_BYTES];
    for (String name : names) {
      if (isPid(name)) {
        read(name, buffer).ifPresent(all::add);
      }
    }
    return all;
  }

  /**
   * Every live descendant of {@code root} (not the root itself), parents before children.
   *
   * @throws UncheckedIOException when {@code /proc} cannot be listed
   */
  public static List<ProcStat> descendants(long root) {
    Map<Long, List<ProcStat>> children = new HashMap<>();
    for (ProcStat p : snapshot()) {
      if (!p.exited()) {
        children.computeIfAbsent(p.ppid(), k -> new ArrayList<>()).add(p);
      }
    }
    List<ProcStat> found = new ArrayList<>();
    Deque<Long> pending = new ArrayDeque<>(List.of(root));
    while (!pending.isEmpty()) {
      for (ProcStat child : children.getOrDefault(pending.poll(), List.of())) {
        found.add(child);
        pending.add(child.pid());
      }
    }
    return found;
  }

  /**
   * Every live process with {@code argument} as one of its arguments in {@code
   * /proc/<pid>/cmdline}, which every user may read.
   *
   * @throws UncheckedIOException when {@code /proc} cannot be listed
   */
  public static List<ProcStat> withArgument(String argument) {
    byte[] needle = argument.getBytes(StandardCharsets.UTF_8);
    List<ProcStat> found = new ArrayList<>();
    for (ProcStat p : snapshot()) {
      if (!p.exited() && hasArgument(p.pid(), needle)) {
        found.add(p);
      }
    }
    return found;
  }

  private static boolean hasArgument(long pid, byte[] needle) {
    byte[] cmdline;
    try {
      cmdline = Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("cmdline"));
    } catch (IOException e) {
      return false;
    }
    int start = 0;
    for (int i = 0; i <= cmdline.length; i++) {
      if (i == cmdline.length || cmdline[i] == 0) {
        if (i - start == needle.length && Arrays.equals(cmdline, start, i, needle, 0, needle.length)) {
          return true;
        }
        start = i + 1;
      }
    }
    return false;
  }

  private static boolean isPid(String name) {
    if (name.isEmpty() || name.length() > 18) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      if (name.charAt(i) < '0' || name.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }
}
