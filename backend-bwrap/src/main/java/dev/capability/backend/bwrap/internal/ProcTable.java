package dev.capability.backend.bwrap.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The host's process table as seen in {@code /proc}. Processes come and go while it is read; one
 * that vanishes between listing and reading is simply absent.
 */
final class ProcTable {
  private static final Path PROC = Path.of("/proc");

  private ProcTable() {}

  static Optional<ProcEntry> read(long pid) {
    try {
      byte[] raw = Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("stat"));
      return Optional.of(ProcEntry.parse(new String(raw, StandardCharsets.ISO_8859_1)));
    } catch (IOException | IllegalArgumentException e) {
      // Gone between listing and reading: there is no process to report.
      return Optional.empty();
    }
  }

  /** True while {@code process} exists and has not exited. */
  static boolean alive(ProcEntry process) {
    return read(process.pid()).filter(p -> p.sameProcessAs(process) && !p.exited()).isPresent();
  }

  /** Every live descendant of {@code root} (not the root itself), parents before children. */
  static List<ProcEntry> descendants(long root) {
    Map<Long, List<ProcEntry>> children = new HashMap<>();
    for (ProcEntry p : snapshot()) {
      if (!p.exited()) {
        children.computeIfAbsent(p.ppid(), k -> new ArrayList<>()).add(p);
      }
    }
    List<ProcEntry> found = new ArrayList<>();
    Deque<Long> pending = new ArrayDeque<>(List.of(root));
    while (!pending.isEmpty()) {
      for (ProcEntry child : children.getOrDefault(pending.poll(), List.of())) {
        found.add(child);
        pending.add(child.pid());
      }
    }
    return found;
  }

  /**
   * Every live process with {@code argument} as one of its arguments in {@code
   * /proc/<pid>/cmdline}, which every user may read.
   */
  static List<ProcEntry> withArgument(String argument) {
    byte[] needle = argument.getBytes(StandardCharsets.UTF_8);
    List<ProcEntry> found = new ArrayList<>();
    for (ProcEntry p : snapshot()) {
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
        if (i - start == needle.length
            && java.util.Arrays.equals(cmdline, start, i, needle, 0, needle.length)) {
          return true;
        }
        start = i + 1;
      }
    }
    return false;
  }

  private static List<ProcEntry> snapshot() {
    List<ProcEntry> all = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, ProcTable::isPid)) {
      for (Path entry : entries) {
        read(Long.parseLong(entry.getFileName().toString())).ifPresent(all::add);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list /proc", e);
    }
    return all;
  }

  private static boolean isPid(Path entry) {
    String name = entry.getFileName().toString();
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
