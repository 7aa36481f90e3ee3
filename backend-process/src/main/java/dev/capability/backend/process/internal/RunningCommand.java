package dev.capability.backend.process.internal;

import dev.capability.backend.support.CommandSupervision;
import dev.capability.backend.support.CommandSupervision.Stop;
import dev.capability.backend.support.Deadline;
import dev.capability.backend.support.FileSizeSignal;
import dev.capability.backend.support.WriteBudget;
import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.ResourceBound;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One started command, seen through to its end: drains its output, feeds its stdin, watches its
 * write budget, waits for exit, timeout, output limit or write budget, then ends whatever is left
 * of its process tree.
 */
final class RunningCommand {
  static final String NONE = "none";
  static final String SESSION_SIGNAL = "session-signal";
  static final String DESCENDANTS_SIGNAL = "descendants-signal";

  private static final Logger LOG = LoggerFactory.getLogger(RunningCommand.class);

  /** How often descendants are recorded when no session can find them later. */
  private static final long TRACK_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final Process process;
  private final LaunchSpec spec;
  private final boolean leadsSession;
  private final Instant startedAt;
  private final Deadline deadline;
  private final Duration drainWait;
  private final JvmProcesses jvm;
  private final WriteBudget writeBudget;
  private final CountDownLatch stopped;

  /**
   * @param process the started command
   * @param spec what it was started from
   * @param leadsSession true when it was started through setsid
   * @param startedAt when it was started
   * @param deadline when its timeout passes
   * @param drainWait how long to wait for output and exit status once the tree was ended
   * @param jvm processes never to signal
   * @param writeBudget the run's write budget, measured before the command started
   * @param stopped counted down by whatever ends the wait: exit, output, the write budget
   */
  RunningCommand(
      Process process,
      LaunchSpec spec,
      boolean leadsSession,
      Instant startedAt,
      Deadline deadline,
      Duration drainWait,
      JvmProcesses jvm,
      WriteBudget writeBudget,
      CountDownLatch stopped) {
    this.process = Objects.requireNonNull(process, "process");
    this.spec = Objects.requireNonNull(spec, "spec");
    this.leadsSession = leadsSession;
    this.startedAt = Objects.requireNonNull(startedAt, "startedAt");
    this.deadline = Objects.requireNonNull(deadline, "deadline");
    this.drainWait = Objects.requireNonNull(drainWait, "drainWait");
    this.jvm = Objects.requireNonNull(jvm, "jvm");
    this.writeBudget = Objects.requireNonNull(writeBudget, "writeBudget");
    this.stopped = Objects.requireNonNull(stopped, "stopped");
  }

  LaunchResult await() {
    long pid = process.pid();
    CommandSupervision supervision =
        CommandSupervision.start(
            process, "command", "capability-process", spec.maxOutputBytes(), stopped);
    spec.stdin()
        .ifPresent(
            input ->
                CommandSupervision.startDaemon(
                    "capability-process-stdin-" + pid,
                    new StdinFeeder(process.getOutputStream(), input)));

    ProcessTreeTerminator terminator =
        new ProcessTreeTerminator(
            pid, process::isAlive, leadsSession, spec.terminationGrace(), jvm);
    // Without a session to find them by later, descendants are recorded on every wake.
    Runnable onWake = leadsSession ? () -> {} : terminator::track;
    Stop stop;
    try (writeBudget) {
      stop = supervision.waitForStop(deadline, writeBudget, TRACK_PERIOD_NANOS, onWake);
    }
    LOG.debug("command {} stopped: {}", pid, stop);

    TerminationReport report = terminator.terminate();
    Deadline drained = Deadline.after(drainWait);
    OptionalInt exitCode = supervision.exitCode(drained);
    CapturedOutput out = supervision.stdout(drained);
    CapturedOutput err = supervision.stderr(drained);
    Instant finishedAt = Instant.now();
    if (stop == Stop.INTERRUPTED) {
      Thread.currentThread().interrupt();
    }
    EnumSet<ResourceBound> boundsHit = EnumSet.noneOf(ResourceBound.class);
    if (writeBudget.finish()) {
      boundsHit.add(ResourceBound.WRITE_BUDGET);
    }
    if (FileSizeSignal.endedBy(exitCode)) {
      boundsHit.add(ResourceBound.FILE_SIZE);
    }
    return new LaunchResult(
        exitCode,
        stop == Stop.TIMEOUT,
        supervision.outputLimitHit(),
        boundsHit,
        out,
        err,
        startedAt,
        finishedAt,
        !report.signalledAny() ? NONE : leadsSession ? SESSION_SIGNAL : DESCENDANTS_SIGNAL);
  }
}
