package dev.capability.backend.support;

import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.linux.FileAllocation;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The byte budget of one run's writable roots ({@link LaunchSpec#maxWriteBytes()}): measures the
 * disk space the roots take before the command starts, again and again while it runs, and once
 * more when it has ended; when they grew by more than the budget it calls the backend's stop
 * action once, and {@link #exceeded()} says so from then on.
 *
 * <p>A measurement sums the blocks allocated to every entry under the roots ({@code statx}, no
 * symbolic link followed, a file with several names counted once), so a sparse file counts by
 * what it really uses. It is bounded: a tree of more than {@link #MAX_ENTRIES} entries, or a
 * directory the measurement cannot read, cannot be measured and counts as over the budget (fail
 * closed). Between measurements the watcher sleeps four times as long as the last one took, at
 * least {@link #MIN_PERIOD_MILLIS} ms, so it takes at most a fifth of one core.
 */
public final class WriteBudget implements AutoCloseable {
  /** The most entries one measurement visits over all roots. */
  public static final int MAX_ENTRIES = 1_000_000;

  /** The shortest pause between two measurements, in milliseconds. */
  public static final long MIN_PERIOD_MILLIS = 100;

  private final List<Path> roots;
  private final long maxBytes;
  private final Runnable onExceeded;
  private final long baseline;
  private final CountDownLatch finished = new CountDownLatch(1);
  private final @Nullable Thread watcher;
  private volatile @Nullable String overBy;

  private WriteBudget(List<Path> roots, long maxBytes, Runnable onExceeded) {
    this.roots = List.copyOf(roots);
    this.maxBytes = maxBytes;
    this.onExceeded = Objects.requireNonNull(onExceeded, "onExceeded");
    Measurement start = measure();
    this.baseline = start.bytes;
    if (start.unmeasurable != null) {
      exceed(start.unmeasurable);
    }
    if (this.roots.isEmpty() || overBy != null) {
      watcher = null;
    } else {
      watcher = new Thread(this::watch, "capability-write-budget");
      watcher.setDaemon(true);
      watcher.start();
    }
  }

  /**
   * Measures {@code spec}'s writable roots now, as the baseline, and watches them from then on.
   * Call it just before the command starts.
   *
   * @param onExceeded what ends the run; called at most once, on the watcher's thread or the
   *     caller's
   */
  public static WriteBudget watch(LaunchSpec spec, Runnable onExceeded) {
    return new WriteBudget(spec.writableRoots(), spec.maxWriteBytes(), onExceeded);
  }

  /**
   * Why write budgets cannot be measured on this machine (the native {@code statx} call is not
   * reachable), or empty when they can; a backend advertises {@code WRITE_BUDGET} only when empty.
   */
  public static Optional<String> unavailable() {
    try {
      FileAllocation.of(Path.of("/"));
      return Optional.empty();
    } catch (IOException | LinkageError e) {
      return Optional.of("statx cannot be called here: " + e);
    }
  }

  /** True once the roots grew by more than the budget, or could not be measured. */
  public boolean exceeded() {
    return overBy != null;
  }

  /** Why the budget was exceeded; empty while it was not. */
  public Optional<String> reason() {
    return Optional.ofNullable(overBy);
  }

  /**
   * Stops watching and measures once more, so that a command that wrote past the budget and
   * exited before the next measurement is still caught. Call it after the command ended.
   *
   * @return {@link #exceeded()} after that last measurement
   */
  public boolean finish() {
    stopWatching();
    if (overBy == null && !roots.isEmpty()) {
      check(measure());
    }
    return exceeded();
  }

  /** Stops watching without measuring again. */
  @Override
  public void close() {
    stopWatching();
  }

  private void stopWatching() {
    finished.countDown();
    if (watcher != null && watcher != Thread.currentThread()) {
      try {
        watcher.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void watch() {
    long pause = MIN_PERIOD_MILLIS;
    try {
      while (!finished.await(pause, TimeUnit.MILLISECONDS)) {
        long began = System.nanoTime();
        if (check(measure())) {
          return;
        }
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
        pause = Math.max(MIN_PERIOD_MILLIS, 4 * tookMillis);
      }
    } catch (InterruptedException e) {
      // Interrupted from outside: stop watching; finish() still measures once more.
      Thread.currentThread().interrupt();
    }
  }

  /** True when the budget is exceeded after {@code measurement}. */
  private synchronized boolean check(Measurement measurement) {
    if (overBy != null) {
      return true;
    }
    if (measurement.unmeasurable != null) {
      exceed(measurement.unmeasurable);
    } else if (measurement.bytes - baseline > maxBytes) {
      exceed(
          "the writable roots grew by "
              + (measurement.bytes - baseline)
              + " bytes, more than the budget of "
              + maxBytes);
    }
    return overBy != null;
  }

  private void exceed(String reason) {
    overBy = reason;
    onExceeded.run();
  }

  private record Measurement(long bytes, @Nullable String unmeasurable) {}

  private Measurement measure() {
    long bytes = 0;
    int entries = 0;
    Set<List<Long>> linked = new HashSet<>();
    ArrayDeque<Path> directories = new ArrayDeque<>();
    try {
      for (Path root : roots) {
        Optional<FileAllocation> allocation = FileAllocation.of(root);
        if (allocation.isPresent()) {
          bytes += allocation.get().allocatedBytes();
          entries++;
          if (allocation.get().directory()) {
            directories.add(root);
          }
        }
      }
      while (!directories.isEmpty()) {
        Path directory = directories.poll();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(directory)) {
          for (Path child : children) {
            if (++entries > MAX_ENTRIES) {
              return new Measurement(
                  bytes, "the writable roots hold more than " + MAX_ENTRIES + " entries");
            }
            Optional<FileAllocation> allocation = FileAllocation.of(child);
            if (allocation.isEmpty()) {
              continue;
            }
            FileAllocation found = allocation.get();
            if (found.directory()) {
              bytes += found.allocatedBytes();
              directories.add(child);
            } else if (found.links() == 1
                || linked.add(List.of(found.device(), found.inode()))) {
              bytes += found.allocatedBytes();
            }
          }
        } catch (NoSuchFileException | NotDirectoryException e) {
          // Removed, or replaced by a file, since it was listed: nothing left to count there.
        }
      }
    } catch (IOException | RuntimeException e) {
      return new Measurement(bytes, "the writable roots cannot be measured: " + e.getMessage());
    }
    return new Measurement(bytes, null);
  }
}
