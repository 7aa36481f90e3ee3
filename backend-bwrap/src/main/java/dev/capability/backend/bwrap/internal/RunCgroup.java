package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.Deadline;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cgroup of one run. The launcher process joins it before it can fork, so every process of the
 * sandbox is in it; {@code cgroup.kill} then ends them all at once, whatever they did to leave the
 * process tree.
 */
final class RunCgroup implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RunCgroup.class);
  private static final Duration REMOVE_WAIT = Duration.ofSeconds(5);
  private static final long FIRST_POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
  private static final long MAX_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  private final Path directory;

  RunCgroup(Path directory) {
    this.directory = directory;
  }

  Path directory() {
    return directory;
  }

  /** Moves {@code pid} into this cgroup; its children are born here. */
  void adopt(long pid) {
    write("cgroup.procs", Long.toString(pid));
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
    try {
      Files.writeString(directory.resolve(file), value, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + value + " to " + directory.resolve(file), e);
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
    try {
      Files.deleteIfExists(directory);
    } catch (IOException e) {
      LOG.warn("could not remove the run cgroup {}: {}", directory, e.getMessage());
    }
  }
}
