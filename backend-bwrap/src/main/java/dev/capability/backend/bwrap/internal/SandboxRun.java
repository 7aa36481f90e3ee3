package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.CommandSupervision;
import dev.capability.backend.support.CommandSupervision.Stop;
import dev.capability.backend.support.Deadline;
import dev.capability.backend.support.FileSizeSignal;
import dev.capability.backend.support.ProcTable;
import dev.capability.backend.support.WriteBudget;
import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.ResourceBound;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One started sandbox seen through to its end: drains its output, watches its write budget, waits
 * for its exit, timeout, output limit or write budget, ends it when needed, and reports what
 * happened.
 */
final class SandboxRun {
  private static final Logger LOG = LoggerFactory.getLogger(SandboxRun.class);
  private static final long WAKE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  private static final long FIRST_POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(200);
  private static final long MAX_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  private final Process launcher;
  private final String runToken;
  private final LaunchSpec spec;
  private final Optional<RunCgroup> cgroup;
  private final Instant startedAt;
  private final Deadline deadline;
  private final Duration settleWait;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final CommandSupervision supervision;
  private final WriteBudget writeBudget;

  /**
   * Starts draining the launcher's stdout and stderr at once, on daemon threads, and measures the
   * writable roots for the write budget; construct it before the sandbox's command can start.
   */
  SandboxRun(
      Process launcher,
      String runToken,
      LaunchSpec spec,
      Optional<RunCgroup> cgroup,
      Instant startedAt,
      Deadline deadline,
      Duration settleWait) {
    this.launcher = Objects.requireNonNull(launcher, "launcher");
    this.runToken = Objects.requireNonNull(runToken, "runToken");
    this.spec = Objects.requireNonNull(spec, "spec");
    this.cgroup = Objects.requireNonNull(cgroup, "cgroup");
    this.startedAt = Objects.requireNonNull(startedAt, "startedAt");
    this.deadline = Objects.requireNonNull(deadline, "deadline");
    this.settleWait = Objects.requireNonNull(settleWait, "settleWait");
    this.supervision =
        CommandSupervision.start(
            launcher, "bwrap", "capability-bwrap", spec.maxOutputBytes(), stopped);
    this.writeBudget = WriteBudget.watch(spec, stopped::countDown);
  }

  /** Waits for the end, ends the sandbox when needed, and reports. */
  LaunchResult await() {
    Stop stop;
    try (writeBudget) {
      stop = supervision.waitForStop(deadline, writeBudget, WAKE_NANOS, () -> {});
    }
    LOG.debug("sandbox {} stopped: {}", launcher.pid(), stop);
    String termination = SandboxTerminator.NONE;
    if (stop != Stop.EXITED) {
      termination =
          new SandboxTerminator(launcher, runToken, cgroup, spec.terminationGrace(), settleWait)
              .terminate();
    }
    Deadline settled = Deadline.after(settleWait);
    OptionalInt exitCode = supervision.exitCode(settled);
    awaitEmptySandbox(settled);
    CapturedOutput out = supervision.stdout(settled);
    CapturedOutput err = supervision.stderr(settled);
    Instant finishedAt = Instant.now();
    if (stop == Stop.INTERRUPTED) {
      Thread.currentThread().interrupt();
    }
    return new LaunchResult(
        exitCode,
        stop == Stop.TIMEOUT,
        supervision.outputLimitHit(),
        boundsHit(exitCode),
        out,
        err,
        startedAt,
        finishedAt,
        termination);
  }

  private EnumSet<ResourceBound> boundsHit(OptionalInt exitCode) {
    EnumSet<ResourceBound> hit = EnumSet.noneOf(ResourceBound.class);
    if (writeBudget.finish()) {
      hit.add(ResourceBound.WRITE_BUDGET);
    }
    if (cgroup.map(RunCgroup::memoryLimitHit).orElse(false)) {
      hit.add(ResourceBound.MEMORY);
    }
    if (cgroup.map(RunCgroup::processLimitHit).orElse(false)) {
      hit.add(ResourceBound.PROCESSES);
    }
    if (FileSizeSignal.endedBy(exitCode)) {
      hit.add(ResourceBound.FILE_SIZE);
    }
    return hit;
  }

  /**
   * Waits until nothing of the sandbox is left. bwrap exits as soon as the command does; the
   * namespace's init, killed by die-with-parent at that moment, makes the kernel end every other
   * process of the namespace before it goes itself.
   */
  private void awaitEmptySandbox(Deadline settled) {
    if (cgroup.isPresent()) {
      if (!cgroup.get().awaitEmpty(settled)) {
        LOG.warn("run cgroup {} is not empty after bwrap exited", cgroup.get().directory());
      }
      return;
    }
    long pause = FIRST_POLL_NANOS;
    while (!ProcTable.withArgument(runToken).isEmpty()) {
      if (settled.passed()) {
        LOG.warn("the PID namespace init of sandbox {} outlived bwrap", launcher.pid());
        return;
      }
      LockSupport.parkNanos(pause);
      pause = Math.min(2 * pause, MAX_POLL_NANOS);
    }
  }
}
