package dev.capability.cli.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * The host's live processes as {@code /proc} lists them, found by a unique argument, for tests
 * that check nothing they started outlives what should have ended it.
 */
final class LiveProcesses {
  private LiveProcesses() {}

  /** The pids of live processes (not zombies) with {@code argument} among their arguments. */
  static List<Long> running(String argument) {
    List<Long> pids = new ArrayList<>();
    try (DirectoryStream<Path> proc = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
      for (Path entry : proc) {
        if (arguments(entry).stream().anyMatch(Predicate.isEqual(argument)) && !zombie(entry)) {
          pids.add(Long.parseLong(entry.getFileName().toString()));
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot list /proc", e);
    }
    return pids;
  }

  /** Ends, forcibly, every live process with {@code argument} among its arguments: a failed test's leftovers. */
  static void killAll(String argument) {
    running(argument).forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
  }

  private static List<String> arguments(Path entry) {
    try {
      return Arrays.asList(new String(Files.readAllBytes(entry.resolve("cmdline")), StandardCharsets.UTF_8).split("\0"));
    } catch (IOException e) {
      return List.of(); // it ended while being read
    }
  }

  private static boolean zombie(Path entry) {
    try {
      String stat = Files.readString(entry.resolve("stat"), StandardCharsets.ISO_8859_1);
      return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (IOException e) {
      return true;
    }
  }
}
