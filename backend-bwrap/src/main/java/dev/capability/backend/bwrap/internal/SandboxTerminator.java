package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.Deadline;
import dev.capability.backend.support.ProcStat;
import dev.capability.backend.support.ProcTable;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a running sandbox. First TERM to every process inside (bwrap itself is spared, so it can
 * report how the command ended; the namespace's init ignores it). After the grace period, KILL:
 *
 * <ul>
 *   <li>with a run cgroup, {@code cgroup.kill}, which reaches every process of the run;
 *   <li>otherwise KILL to bwrap's child, the namespace's PID 1, whose death makes the kernel kill
 *       every other process of the PID namespace before bwrap sees it exit.
 * </ul>
 *
 * <p>Either way, once the launcher has exited the sandbox is empty. Signals go through {@link
 * ProcessHandle} after checking that the pid still names the process that was found, so a reused
 * pid is never signalled.
 */
final class SandboxTerminator {
  /** The sandbox was not ended by the backend. */
  static final String NONE = "none";

  /** KILL to the PID namespace's init; the kernel ended the rest of the namespace. */
  static final String PID_NAMESPACE = "pid-namespace";

  /** {@code cgroup.kill} on the run's cgroup. */
  static final String CGROUP_KILL = "cgroup-kill";

  private static final Logger LOG = LoggerFactory.getLogger(SandboxTerminator.class);
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  private final Process launcher;
  private final String runToken;
  private final Optional<RunCgroup> cgroup;
  private final Duration grace;
  private final Duration settleWait;

  /**
   * @param launcher the process the JVM started, bwrap by now
   * @param runToken the argument that marks bwrap and the sandbox's init
   * @param cgroup the run's cgroup, when there is one
   * @param grace time between TERM and KILL
   * @param settleWait how long the launcher is awaited after KILL
   */
  SandboxTerminator(
      Process launcher,
      String runToken,
      Optional<RunCgroup> cgroup,
      Duration grace,
      Duration settleWait) {
    this.launcher = Objects.requireNonNull(launcher, "launcher");
    this.runToken = Objects.requireNonNull(runToken, "runToken");
    this.cgroup = Objects.requireNonNull(cgroup, "cgroup");
    this.grace = Objects.requireNonNull(grace, "grace");
    this.settleWait = Objects.requireNonNull(settleWait, "settleWait");
  }

  /** Ends the sandbox; returns the mechanism that did, for {@code LaunchResult.termination}. */
  String terminate() {
    boolean interrupted = Thread.interrupted();
    Map<Long, Long> termed = new HashMap<>();
    Deadline graceEnd = Deadline.after(grace);
    while (launcher.isAlive()) {
      for (ProcStat process : ProcTable.descendants(launcher.pid())) {
        Long before = termed.put(process.pid(), process.startTicks());
        if (before == null || before != process.startTicks()) {
          signal(process, false);
        }
      }
      if (graceEnd.passed()) {
        break;
      }
      LockSupport.parkNanos(Math.min(POLL_NANOS, graceEnd.remainingNanos()));
    }
    String mechanism = PID_NAMESPACE;
    if (cgroup.isPresent() && killCgroup(cgroup.get())) {
      mechanism = CGROUP_KILL;
    } else if (launcher.isAlive()) {
      killNamespaceInit();
    }
    awaitLauncher();
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return mechanism;
  }

  private static boolean killCgroup(RunCgroup run) {
    try {
      run.kill();
      return true;
    } catch (UncheckedIOException e) {
      LOG.warn(
          "cgroup.kill of {} failed, ending the PID namespace instead: {}",
          run.directory(),
          e.getMessage());
      return false;
    }
  }

  private void killNamespaceInit() {
    Deadline settle = Deadline.after(settleWait);
    // Killing bwrap before it cloned the namespace's init could let the init outlive it: wait
    // for the clone, which comes right after argument parsing.
    List<ProcStat> children = children();
    while (children.isEmpty() && launcher.isAlive() && !settle.passed()) {
      LockSupport.parkNanos(POLL_NANOS);
      children = children();
    }
    if (children.isEmpty()) {
      if (launcher.isAlive()) {
        LOG.warn("bwrap {} has no sandbox process yet; killing bwrap itself", launcher.pid());
        launcher.destroyForcibly();
      }
      return;
    }
    for (ProcStat child : children) {
      signal(child, true);
    }
  }

  /** The namespace's init: the fork of bwrap that carries the run's token. */
  private List<ProcStat> children() {
    return ProcTable.withArgument(runToken).stream()
        .filter(p -> p.pid() != launcher.pid())
        .toList();
  }

  private void awaitLauncher() {
    try {
      if (!launcher.waitFor(settleWait.toNanos(), TimeUnit.NANOSECONDS)) {
        LOG.warn("bwrap {} did not exit after its sandbox was killed; killing it", launcher.pid());
        launcher.destroyForcibly();
        launcher.waitFor(settleWait.toNanos(), TimeUnit.NANOSECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void signal(ProcStat target, boolean kill) {
    Optional<ProcStat> now = ProcTable.read(target.pid());
    if (now.isEmpty() || !now.get().sameProcessAs(target) || now.get().exited()) {
      return;
    }
    ProcessHandle.of(target.pid())
        .ifPresent(
            handle -> {
              LOG.debug("{} sandbox process {}", kill ? "KILL" : "TERM", target.pid());
              if (kill) {
                handle.destroyForcibly();
              } else {
                handle.destroy();
              }
            });
  }
}
