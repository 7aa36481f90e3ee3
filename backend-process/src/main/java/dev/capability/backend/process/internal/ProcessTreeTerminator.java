package dev.capability.backend.process.internal;

import dev.capability.backend.support.Deadline;
import dev.capability.backend.support.ProcStat;
import dev.capability.backend.support.ProcTable;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the process tree of one launched command: the command itself, every process in the session
 * it leads (when it was started through {@code setsid}), every descendant, and every process seen
 * in the tree earlier. TERM first; after the grace period KILL for whatever is left.
 *
 * <p>Processes are signalled one by one, never by process group or session, and never this JVM, its
 * ancestors or (by session id) its session. Each signal goes through {@link ProcessHandle}, which
 * checks the process start time, after this class checked that the pid still names the process it
 * selected; so a pid reused by an unrelated process is not signalled.
 *
 * <p>Not thread-safe: the launching thread alone uses it.
 */
final class ProcessTreeTerminator {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessTreeTerminator.class);
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
  private static final int MAX_KILL_ROUNDS = 250;

  private final long rootPid;
  private final BooleanSupplier rootUnreaped;
  private final boolean rootLeadsSession;
  private final Duration grace;
  private final JvmProcesses jvm;

  /** pid to start ticks of every process ever seen in the tree; reparenting cannot hide them. */
  private final Map<Long, Long> seen = new HashMap<>();

  /**
   * @param rootPid the launched command's pid
   * @param rootUnreaped true while the command has not been reaped, so its pid is still its own
   * @param rootLeadsSession true when the command was started as the leader of a new session
   * @param grace time between TERM and KILL
   * @param jvm the processes that must never be signalled
   * @throws IllegalArgumentException when the root is this JVM, an ancestor, or leads its session
   */
  ProcessTreeTerminator(
      long rootPid,
      BooleanSupplier rootUnreaped,
      boolean rootLeadsSession,
      Duration grace,
      JvmProcesses jvm) {
    this.rootUnreaped = Objects.requireNonNull(rootUnreaped, "rootUnreaped");
    this.grace = Objects.requireNonNull(grace, "grace");
    this.jvm = Objects.requireNonNull(jvm, "jvm");
    if (jvm.contains(rootPid)) {
      throw new IllegalArgumentException(
          "refusing to end process " + rootPid + ": it is this JVM or one of its ancestors");
    }
    if (rootLeadsSession && rootPid == jvm.session()) {
      throw new IllegalArgumentException(
          "refusing to end session " + rootPid + ": it is this JVM's own session");
    }
    this.rootPid = rootPid;
    this.rootLeadsSession = rootLeadsSession;
  }

  /**
   * Remembers the processes now in the tree, so that they are still ended after their parent exits
   * and they are reparented away from the command.
   */
  void track() {
    members();
  }

  /**
   * TERM to every process of the tree, including ones that appear during the grace period; then
   * KILL, round after round, until none is left.
   */
  TerminationReport terminate() {
    Set<Long> signalled = new LinkedHashSet<>();
    Map<Long, Long> termed = new HashMap<>();
    boolean interrupted = false;
    Deadline graceEnd = Deadline.after(grace);
    while (true) {
      List<ProcStat> targets = members();
      if (targets.isEmpty()) {
        return finish(signalled, List.of(), interrupted);
      }
      for (ProcStat target : targets) {
        if (!isIn(termed, target) && signal(target, false)) {
          signalled.add(target.pid());
        }
        termed.put(target.pid(), target.startTicks());
      }
      if (interrupted || graceEnd.passed()) {
        break;
      }
      interrupted = pause(Math.min(POLL_NANOS, graceEnd.remainingNanos()));
    }
    for (int round = 0; round < MAX_KILL_ROUNDS; round++) {
      List<ProcStat> targets = members();
      if (targets.isEmpty()) {
        return finish(signalled, List.of(), interrupted);
      }
      for (ProcStat target : targets) {
        if (signal(target, true)) {
          signalled.add(target.pid());
        }
      }
      interrupted |= pause(POLL_NANOS);
    }
    List<Long> survivors = members().stream().map(ProcStat::pid).toList();
    LOG.warn("{} processes of command {} survived KILL: {}", survivors.size(), rootPid, survivors);
    return finish(signalled, survivors, interrupted);
  }

  /**
   * The live processes of the tree now: the root while it is still ours, members of its session
   * unless its pid was reused, every process seen before, and all their descendants.
   */
  private List<ProcStat> members() {
    // Read before the scan: if the root was already reaped then, a process found under its pid
    // is a stranger that reused it.
    boolean rootIsOurs = rootUnreaped.getAsBoolean();
    List<ProcStat> all = ProcTable.snapshot();
    boolean rootPidReused = !rootIsOurs && all.stream().anyMatch(p -> p.pid() == rootPid);
    boolean scanSession = rootLeadsSession && !rootPidReused;

    Map<Long, List<ProcStat>> children = new HashMap<>();
    Deque<ProcStat> pending = new ArrayDeque<>();
    for (ProcStat p : all) {
      if (p.exited() || jvm.contains(p.pid())) {
        continue;
      }
      children.computeIfAbsent(p.ppid(), k -> new ArrayList<>()).add(p);
      boolean isRoot = rootIsOurs && p.pid() == rootPid;
      boolean inSession = scanSession && p.session() == rootPid;
      if (isRoot || inSession || isIn(seen, p)) {
        pending.add(p);
      }
    }
    Map<Long, ProcStat> tree = new LinkedHashMap<>();
    while (!pending.isEmpty()) {
      ProcStat p = pending.poll();
      if (tree.putIfAbsent(p.pid(), p) == null) {
        pending.addAll(children.getOrDefault(p.pid(), List.of()));
      }
    }
    tree.values().forEach(p -> seen.put(p.pid(), p.startTicks()));
    return List.copyOf(tree.values());
  }

  /** True when {@code processes} (pid to start ticks) holds this very process. */
  private static boolean isIn(Map<Long, Long> processes, ProcStat process) {
    Long startTicks = processes.get(process.pid());
    return startTicks != null && startTicks == process.startTicks();
  }

  private boolean signal(ProcStat target, boolean kill) {
    if (jvm.contains(target.pid())) {
      return false;
    }
    Optional<ProcessHandle> handle = ProcessHandle.of(target.pid());
    Optional<ProcStat> now = ProcTable.read(target.pid());
    if (handle.isEmpty() || now.isEmpty() || !now.get().sameProcessAs(target)) {
      return false;
    }
    LOG.debug(
        "{} process {} ({}) of command {}",
        kill ? "KILL" : "TERM",
        target.pid(),
        target.comm(),
        rootPid);
    return kill ? handle.get().destroyForcibly() : handle.get().destroy();
  }

  /** Sleeps; returns true when interrupted, so termination can finish and restore the flag. */
  private static boolean pause(long nanos) {
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
      return false;
    } catch (InterruptedException e) {
      return true;
    }
  }

  private static TerminationReport finish(
      Set<Long> signalled, List<Long> survivors, boolean interrupted) {
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return new TerminationReport(List.copyOf(signalled), survivors);
  }
}
