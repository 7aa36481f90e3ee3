package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.Deadline;
import java.nio.file.Path;

/** bwrap's options in a regular file only this JVM's user can read, written before the start. */
record ArgumentFile(Path path) implements ArgumentChannel {
  static ArgumentFile write(RunDirectory run, byte[] options) {
    return new ArgumentFile(run.writePrivate("args", options));
  }

  @Override
  public void deliver(Process launcher, Deadline deadline) {
    // Already on disk.
  }
}
