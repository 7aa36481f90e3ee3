package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.Deadline;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cgroup of one run. The launcher process joins it before it can fork, so every process of the
 * sandbox is in it; {@code cgroup.kill} then ends them all at once, whatever they did to leave the
 * process tree. On a hybrid host the run also has cgroups in the v1 memory, pids and cpu
 * hierarchies, which hold the same processes and carry the limits.
 */
final class RunCgroup implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RunCgroup.class);
  private static final Duration REMOVE_WAIT = Duration.ofSeconds(5);
  private static final long REMOVE_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
  private static final long FIRST_POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
  private static final long MAX_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  private final Path directory;
  private final List<Path> legacy = new ArrayList<>();

  RunCgroup(Path directory) {
    this.directory = directory;
  }

  /** Creates the run's cgroup {@code legacyDirectory} in a v1 hierarchy; removed on close. */
  Path addLegacy(Path legacyDirectory) {
    try {
      Files.createDirectory(legacyDirectory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the run cgroup " + legacyDirectory, e);
    }
    legacy.add(legacyDirectory);
    return legacyDirectory;
  }

  Path directory() {
    return directory;
  }

  /** Moves {@code pid} into this cgroup; its children are born here. */
  void adopt(long pid) {
    // The limits first: once in the v2 cgroup the process is killable, but not yet bounded.
    for (Path limits : legacy) {
      write(limits, "cgroup.procs", Long.toString(pid));
    }
    write("cgroup.procs", Long.toString(pid));
  }

  /** True when the kernel's out-of-memory killer ended a process of the run for its limit. */
  boolean memoryLimitHit() {
    return counter(directory.resolve("memory.events"), "oom_kill") > 0
        || legacy.stream().anyMatch(d -> counter(d.resolve("memory.oom_control"), "oom_kill") > 0);
  }

  /** True when a fork of the run failed because of its process limit. */
  boolean processLimitHit() {
    return counter(directory.resolve("pids.events"), "max") > 0
        || legacy.stream().anyMatch(d -> counter(d.resolve("pids.events"), "max") > 0);
  }

  /** The value of {@code key} in a flat-keyed cgroup file; 0 when the file or key is absent. */
  private static long counter(Path file, String key) {
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
        String[] fields = line.trim().split("\\s+");
        if (fields.length == 2 && fields[0].equals(key)) {
          return Long.parseLong(fields[1]);
        }
      }
    } catch (IOException | NumberFormatException e) {
      // Not a file this cgroup has: no such event.
    }
    return 0;
  }

  /** SIGKILL to every process in the cgroup, atomically with respect to forks. */
  void kill() {
    write("cgroup.kill", "1");
  }

  /** True while a live process is in the cgroup. */
  boolean populated() {
    try {
      for (String line :
          Files.readAllLines(directory.resolve("cgroup.events"), StandardCharsets.US_ASCII)) {
        if (line.startsWith("populated ")) {
          return !line.endsWith(" 0");
        }
      }
      return false;
    } catch (IOException e) {
      // A removed cgroup holds nothing.
      return false;
    }
  }

  /** Waits until no process is left in the cgroup; true when that happened in time. */
  boolean awaitEmpty(Deadline deadline) {
    // The last processes usually go within a millisecond: poll fast first, then back off.
    long pause = FIRST_POLL_NANOS;
    while (populated()) {
      if (deadline.passed()) {
        return false;
      }
      LockSupport.parkNanos(pause);
      pause = Math.min(2 * pause, MAX_POLL_NANOS);
    }
    return true;
  }

  void write(String file, String value) {
    write(directory, file, value);
  }

  void write(Path cgroup, String file, String value) {
    try {
      Files.writeString(cgroup.resolve(file), value, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + value + " to " + cgroup.resolve(file), e);
    }
  }

  /** Kills what is left, waits for it, and removes the cgroup. */
  @Override
  public void close() {
    if (populated()) {
      LOG.debug("run cgroup {} still populated at close; killing", directory);
      try {
        kill();
      } catch (UncheckedIOException e) {
        LOG.warn("cgroup.kill of {} failed: {}", directory, e.getMessage());
      }
    }
    if (!awaitEmpty(Deadline.after(REMOVE_WAIT))) {
      LOG.warn("processes of run cgroup {} survived cgroup.kill", directory);
    }
    Deadline removal = Deadline.after(REMOVE_WAIT);
    remove(directory, removal);
    legacy.forEach(cgroup -> remove(cgroup, removal));
  }

  /**
   * Removes an empty cgroup. A v1 cgroup still counts a process that has exited but is not yet
   * released for a moment after the v2 one shows it gone, and refuses removal ({@code EBUSY})
   * until then, so a refusal is retried until {@code deadline}.
   */
  private static void remove(Path cgroup, Deadline deadline) {
    while (true) {
      try {
        Files.deleteIfExists(cgroup);
        return;
      } catch (IOException e) {
        if (deadline.passed()) {
          LOG.warn("could not remove the run cgroup {}: {}", cgroup, e.getMessage());
          return;
        }
        LockSupport.parkNanos(REMOVE_RETRY_NANOS);
      }
    }
  }
}
