package dev.capability.capability.runtime;

import dev.capability.capability.runtime.internal.exec.ChildJvmExecutor;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.core.BackendSelection;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/** The executors this module provides, for hosts that configure one by hand. */
public final class CapabilityExecutors {
  /** The id of the child-JVM executor. */
  public static final String CHILD_JVM = ChildJvmExecutor.ID;

  /**
   * What a backend must supply to be chosen for the child-JVM executor when none is named: a
   * network namespace, the base directory read-only with writable granted roots, a non-root uid and
   * no new privileges. The unisolated {@code process} backend supplies none of it.
   */
  public static final Set<IsolationCapability> CHILD_JVM_ISOLATION = ChildJvmExecutor.REQUIRED_ISOLATION;

  private CapabilityExecutors() {}

  /**
   * A child-JVM executor on the backend the kernel's one selection rule chooses
   * ({@link BackendSelection}): the strongest available backend that supplies
   * {@link ChildJvmExecutor#REQUIRED_ISOLATION}, found on this module's class path. The choice is
   * made now, before anything is planned, because the backend's id is part of the executor's
   * identity and so of every plan's fingerprint. Never the unisolated {@code process} backend.
   *
   * @param baseDirectory where relative effect scopes resolve; granted paths must lie under it
   * @throws dev.capability.kernel.api.BackendUnavailableException {@code ISOLATION_UNAVAILABLE}
   *     naming every backend and why it does not fit, when none does
   */
  public static Executor childJvm(Path baseDirectory) {
    ExecutionBackend backend =
        BackendSelection.select(
            CapabilityExecutors.class.getClassLoader(), BackendConfig.defaults(), CHILD_JVM_ISOLATION);
    return ChildJvmExecutor.owning(backend, baseDirectory);
  }

  /**
   * A child-JVM executor that launches the capability host through the kernel backend
   * {@code backendId}.
   *
   * @param allowUnisolated whether the plain {@code process} backend may be used; it is a fault
   *     boundary, not a security one, so only for code the host trusts
   * @param baseDirectory where relative effect scopes resolve; granted paths must lie under it
   */
  public static Executor childJvm(String backendId, boolean allowUnisolated, Path baseDirectory) {
    return new ChildJvmExecutor(backendId, allowUnisolated, List.of(), baseDirectory);
  }

  /**
   * A child-JVM executor as {@link #childJvm(String, boolean, Path)} whose child JVMs map the
   * operator's AppCDS archive {@code classDataArchive} ({@code -XX:SharedArchiveFile}, recorded in
   * the launch argv and so in the attestation), which makes them start faster. The archive must
   * be an absolute path to a regular file (not a symlink) owned by root or this JVM's user, that
   * neither it nor its directory is writable by group or others, and not under a path granted for
   * writing; otherwise runs are refused with {@code ISOLATION_UNAVAILABLE}. With the {@code bwrap}
   * backend it must also lie where the sandbox shows it (a system directory or under {@code
   * baseDirectory}). An archive the child JVM cannot use (stale, made for another class path or
   * JDK) is skipped with a warning in the run's log. docs/BENCHMARKS.md shows how to make one.
   */
  public static Executor childJvm(String backendId, boolean allowUnisolated, Path baseDirectory, Path classDataArchive) {
    return new ChildJvmExecutor(
        backendId, allowUnisolated, List.of(), baseDirectory, Optional.of(Objects.requireNonNull(classDataArchive, "classDataArchive")));
  }
}
