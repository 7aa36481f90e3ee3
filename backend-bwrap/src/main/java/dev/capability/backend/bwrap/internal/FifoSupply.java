package dev.capability.backend.bwrap.internal;

import dev.capability.kernel.api.backend.LaunchFailedException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fresh named pipes (mode 0600, owned by this JVM's user) in a private directory. Java cannot
 * create a named pipe, so {@code mkfifo} makes them, a batch per process start, and each is handed
 * out once.
 */
final class FifoSupply implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FifoSupply.class);
  private static final int BATCH = 8;
  private static final long MKFIFO_SECONDS = 10;

  private final Path mkfifo;
  private final Path directory;
  private final Deque<Path> ready = new ArrayDeque<>();

  FifoSupply(Path mkfifo, Path directory) {
    this.mkfifo = Objects.requireNonNull(mkfifo, "mkfifo");
    this.directory = Objects.requireNonNull(directory, "directory");
  }

  /** A named pipe nobody has opened; the caller moves or deletes it. */
  synchronized Path take() {
    if (ready.isEmpty()) {
      refill();
    }
    return ready.poll();
  }

  private void refill() {
    List<Path> paths = new ArrayList<>();
    for (int i = 0; i < BATCH; i++) {
      paths.add(directory.resolve("fifo-" + UUID.randomUUID()));
    }
    List<String> command = new ArrayList<>(List.of(mkfifo.toString(), "-m", "600", "--"));
    paths.forEach(p -> command.add(p.toString()));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(new File("/"))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().clear();
    try {
      Process process = builder.start();
      if (!process.waitFor(MKFIFO_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new LaunchFailedException("mkfifo did not finish creating pipes in " + directory);
      }
      if (process.exitValue() != 0) {
        throw new LaunchFailedException(
            "mkfifo could not create pipes in "
                + directory
                + " (exit status "
                + process.exitValue()
                + ")");
      }
      for (Path path : paths) {
        BasicFileAttributes attributes =
            Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!attributes.isOther()) {
          throw new LaunchFailedException(path + " is not the named pipe mkfifo should have made");
        }
      }
      ready.addAll(paths);
    } catch (IOException e) {
      throw new LaunchFailedException("cannot create named pipes in " + directory + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LaunchFailedException("interrupted while creating named pipes in " + directory);
    }
  }

  /** Removes the pipes not handed out. */
  @Override
  public synchronized void close() {
    for (Path path : ready) {
      try {
        Files.deleteIfExists(path);
      } catch (IOException e) {
        LOG.debug("could not remove the unused pipe {}: {}", path, e.getMessage());
      }
    }
    ready.clear();
  }
}
