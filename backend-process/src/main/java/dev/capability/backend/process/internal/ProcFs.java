package dev.capability.backend.process.internal;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the Linux process table from {@code /proc}. Processes come and go while it is read, so a
 * process that vanishes between listing and reading is simply absent from the answer.
 */
final class ProcFs {
  private static final Path PROC = Path.of("/proc");
  private static final int STAT_BUFFER_BYTES = 4096;

  private ProcFs() {}

  /** True when {@code /proc} is mounted and this process's own stat line can be parsed. */
  static boolean available() {
    return read(ProcessHandle.current().pid()).isPresent();
  }

  /** The stat line of {@code pid}, if that process (or its zombie) exists. */
  static Optional<ProcStat> read(long pid) {
    // A stat line is short (a 16-byte name and 52 numbers); one read into a small buffer costs
    // a third less than Files.readAllBytes, and the tree terminator reads every process's line.
    byte[] buffer = new byte[STAT_BUFFER_BYTES];
    try (FileInputStream in = new FileInputStream("/proc/" + pid + "/stat")) {
      int length = 0;
      int read;
      while (length < buffer.length && (read = in.read(buffer, length, buffer.length - length)) > 0) {
        length += read;
      }
      return Optional.of(ProcStat.parse(new String(buffer, 0, length, StandardCharsets.ISO_8859_1)));
    } catch (IOException | IllegalArgumentException e) {
      // Gone between listing and reading, or /proc is not what this code expects: either way
      // there is no process to report.
      return Optional.empty();
    }
  }

  /** Every process visible in {@code /proc}, zombies included; not an atomic snapshot. */
  static List<ProcStat> snapshot() {
    List<ProcStat> all = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, ProcFs::isPidDirectory)) {
      for (Path entry : entries) {
        read(Long.parseLong(entry.getFileName().toString())).ifPresent(all::add);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot list /proc: " + e.getMessage(), e);
    }
    return all;
  }

  private static boolean isPidDirectory(Path entry) {
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
