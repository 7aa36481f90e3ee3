package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.Deadline;
import java.nio.file.Path;

/**
 * How bwrap's options reach it: a private file that {@code flock} opens as descriptor 3 and {@code
 * bwrap --args 3} reads. For runs in a cgroup the file is a named pipe, so the launcher blocks in
 * {@code open} until the JVM has moved it into the run's cgroup: it cannot fork before.
 */
sealed interface ArgumentChannel permits ArgumentFile, ArgumentPipe {
  /** The path flock opens. */
  Path path();

  /**
   * Hands the options to the started launcher; returns once bwrap holds them or the launcher is
   * gone or the deadline passed.
   */
  void deliver(Process launcher, Deadline deadline);
}
