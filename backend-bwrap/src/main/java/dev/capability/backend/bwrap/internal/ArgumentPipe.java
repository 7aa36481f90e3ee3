package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.Deadline;
import dev.capability.kernel.api.backend.LaunchFailedException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * bwrap's options through a named pipe (mode 0600) in the run directory. The launcher's first
 * {@code open} of it blocks until the JVM opens the other end, which the JVM does only after moving
 * the launcher into the run's cgroup; so every process of the sandbox is born in the cgroup, with
 * no window in which one could fork outside it.
 */
final class ArgumentPipe implements ArgumentChannel {
  private static final Logger LOG = LoggerFactory.getLogger(ArgumentPipe.class);
  private static final long POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

  private final Path path;
  private final byte[] options;
  private final int descriptor;

  private ArgumentPipe(Path path, byte[] options, int descriptor) {
    this.path = path;
    this.options = options;
    this.descriptor = descriptor;
  }

  /**
   * Takes a fresh pipe from {@code supply} into the run directory.
   *
   * @param descriptor the descriptor the launcher opens the pipe on
   */
  static ArgumentPipe create(FifoSupply supply, RunDirectory run, byte[] options, int descriptor) {
    Path path = run.path().resolve("args");
    try {
      Files.move(supply.take(), path, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new LaunchFailedException("cannot move an argument pipe to " + path + ": " + e, e);
    }
    return new ArgumentPipe(path, options.clone(), descriptor);
  }

  @Override
  public Path path() {
    return path;
  }

  @Override
  public void deliver(Process launcher, Deadline deadline) {
    Objects.requireNonNull(launcher, "launcher");
    // Read-write never blocks on Linux, and lets the launcher's pending open complete.
    try (FileChannel pipe =
        FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      AtomicBoolean written = new AtomicBoolean();
      Thread writer =
          new Thread(() -> write(pipe, written), "capability-bwrap-args-" + launcher.pid());
      writer.setDaemon(true);
      writer.start();
      // Closing before the launcher has the pipe open would discard what was written.
      boolean opened = false;
      while (!(opened && written.get()) && launcher.isAlive() && !deadline.passed()) {
        opened = opened || holdsPipe(launcher.pid());
        LockSupport.parkNanos(POLL_NANOS);
      }
    } catch (IOException e) {
      throw new LaunchFailedException(
          "cannot hand bwrap its arguments through " + path + ": " + e, e);
    }
  }

  private void write(FileChannel pipe, AtomicBoolean written) {
    try {
      ByteBuffer buffer = ByteBuffer.wrap(options);
      while (buffer.hasRemaining()) {
        pipe.write(buffer);
      }
      written.set(true);
    } catch (IOException e) {
      // Closed because the launcher ended or the deadline passed; the run reports that.
      LOG.debug("writing bwrap's arguments stopped: {}", e.getMessage());
    }
  }

  private boolean holdsPipe(long pid) {
    Path held = Path.of("/proc", Long.toString(pid), "fd", Integer.toString(descriptor));
    try {
      return Files.readSymbolicLink(held).equals(path);
    } catch (IOException e) {
      return false;
    }
  }
}
