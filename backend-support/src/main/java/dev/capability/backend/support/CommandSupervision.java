package dev.capability.backend.support;

import dev.capability.kernel.api.CapturedOutput;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What seeing a started host process through to its end takes in every backend that starts one:
 * its stdout and stderr drained on daemon threads into {@link BoundedOutput}s, a wait for the first
 * of exit, output limit, write budget, timeout or interruption, then its exit status and output
 * collected within a deadline. How the process's tree is ended after the wait is each backend's
 * own.
 */
public final class CommandSupervision {
  /** Why the wait ended. */
  public enum Stop {
    /** The process exited by itself. */
    EXITED,
    /** A stream went past the output bound. */
    OUTPUT_LIMIT,
    /** The writable roots grew past the write budget. */
    WRITE_BUDGET,
    /** The deadline passed. */
    TIMEOUT,
    /** The waiting thread was interrupted; its flag is cleared and must be restored. */
    INTERRUPTED
  }

  private static final Logger LOG = LoggerFactory.getLogger(CommandSupervision.class);
  private static final String IDLE_THREAD_NAME = "capability-supervision-idle";

  /** Daemon threads for output drains and input feeds, each ended after a minute unused. */
  private static final ExecutorService DAEMONS =
      new ThreadPoolExecutor(
          0,
          Integer.MAX_VALUE,
          60,
          TimeUnit.SECONDS,
          new SynchronousQueue<>(),
          task -> {
            Thread thread = new Thread(task, IDLE_THREAD_NAME);
            thread.setDaemon(true);
            return thread;
          });

  private final Process process;
  private final String label;
  private final CountDownLatch stopped;
  private final BoundedOutput stdout;
  private final BoundedOutput stderr;

  private CommandSupervision(
      Process process, String label, long maxOutputBytes, CountDownLatch stopped) {
    this.process = process;
    this.label = label;
    this.stopped = stopped;
    this.stdout = new BoundedOutput(process.getInputStream(), maxOutputBytes, stopped::countDown);
    this.stderr = new BoundedOutput(process.getErrorStream(), maxOutputBytes, stopped::countDown);
  }

  /**
   * Starts draining {@code process}'s stdout and stderr, each on its own daemon thread named
   * {@code threadPrefix-stdout-<pid>} and so on, and counts {@code stopped} down when it exits or a
   * stream passes {@code maxOutputBytes}.
   *
   * @param label how log lines name the process, for example {@code "command"} or {@code "bwrap"}
   * @param stopped the latch the wait sleeps on; whatever else ends the wait counts it down too
   */
  public static CommandSupervision start(
      Process process,
      String label,
      String threadPrefix,
      long maxOutputBytes,
      CountDownLatch stopped) {
    Objects.requireNonNull(process, "process");
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(threadPrefix, "threadPrefix");
    Objects.requireNonNull(stopped, "stopped");
    CommandSupervision supervision =
        new CommandSupervision(process, label, maxOutputBytes, stopped);
    startDaemon(threadPrefix + "-stdout-" + process.pid(), supervision.stdout);
    startDaemon(threadPrefix + "-stderr-" + process.pid(), supervision.stderr);
    process.onExit().thenRun(stopped::countDown);
    return supervision;
  }

  /**
   * Runs {@code task} on a daemon thread called {@code name} while it runs. The threads are kept
   * for a while and reused: every launch drains two streams, and starting two threads costs more
   * than a short command's whole run on a busy host.
   */
  public static void startDaemon(String name, Runnable task) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(task, "task");
    DAEMONS.execute(
        () -> {
          Thread thread = Thread.currentThread();
          thread.setName(name);
          try {
            task.run();
          } finally {
            thread.setName(IDLE_THREAD_NAME);
          }
        });
  }

  /**
   * Waits for the first reason to stop, in this order of precedence: output limit, write budget,
   * exit, timeout. Wakes when {@code stopped} is counted down or after {@code wakeNanos}, and then
   * runs {@code onWake} (for example to record the process's descendants) before looking again.
   */
  public Stop waitForStop(
      Deadline deadline, WriteBudget writeBudget, long wakeNanos, Runnable onWake) {
    while (true) {
      if (outputLimitHit()) {
        return Stop.OUTPUT_LIMIT;
      }
      if (writeBudget.exceeded()) {
        return Stop.WRITE_BUDGET;
      }
      if (!process.isAlive()) {
        return Stop.EXITED;
      }
      long remaining = deadline.remainingNanos();
      if (remaining == 0) {
        return Stop.TIMEOUT;
      }
      try {
        stopped.await(Math.min(remaining, wakeNanos), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        // The caller gives up: it ends the process like on timeout, then restores the flag.
        return Stop.INTERRUPTED;
      }
      onWake.run();
    }
  }

  /** True once stdout or stderr went past the output bound. */
  public boolean outputLimitHit() {
    return stdout.limitExceeded() || stderr.limitExceeded();
  }

  /** The exit status, waiting until {@code settled} for it; empty when it did not come. */
  public OptionalInt exitCode(Deadline settled) {
    try {
      if (process.waitFor(settled.remainingNanos(), TimeUnit.NANOSECONDS)) {
        return OptionalInt.of(process.exitValue());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.warn("{} {} did not exit; its exit status is unknown", label, process.pid());
    return OptionalInt.empty();
  }

  /** The captured stdout, waiting until {@code settled} for its end before abandoning it. */
  public CapturedOutput stdout(Deadline settled) {
    return drain(stdout, settled);
  }

  /** The captured stderr, waiting until {@code settled} for its end before abandoning it. */
  public CapturedOutput stderr(Deadline settled) {
    return drain(stderr, settled);
  }

  private CapturedOutput drain(BoundedOutput output, Deadline settled) {
    boolean ended = false;
    try {
      ended = output.awaitEnd(Duration.ofNanos(settled.remainingNanos()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!ended) {
      // A process outside what was ended (an escaped daemon) still holds the pipe open.
      LOG.debug("output of {} {} still open after it ended; abandoning it", label, process.pid());
      output.abandon();
    }
    return output.captured();
  }
}
