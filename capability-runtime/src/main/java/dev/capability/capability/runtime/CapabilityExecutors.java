package dev.capability.capability.runtime;

import dev.capability.capability.runtime.internal.exec.ChildJvmExecutor;
import dev.capability.capability.runtime.internal.exec.ChildJvmExecutorProvider;
import dev.capability.capability.runtime.internal.exec.InProcessExecutorProvider;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.core.BackendSelection;
import dev.capability.kernel.core.Backends;
import java.nio.file.Path;
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

  /**
   * The {@link ExecutorConfig} setting that names the backend the child-JVM executor launches
   * through; without it the executor takes the strongest available sandbox that supplies {@link
   * #CHILD_JVM_ISOLATION}, chosen when it is created.
   */
  public static final String CHILD_JVM_BACKEND = ChildJvmExecutorProvider.BACKEND;

  /**
   * The {@link ExecutorConfig} setting, {@code true} or {@code false} (the default), that lets a
   * child-JVM executor named onto the plain {@code process} backend run; that backend is a fault
   * boundary, not a security one.
   */
  public static final String CHILD_JVM_ALLOW_UNISOLATED = ChildJvmExecutorProvider.ALLOW_UNISOLATED;

  /**
   * The {@link ExecutorConfig} setting, comma-separated lower-case DNS names, that
   * the egress proxy lets resolve to loopback or private addresses when a run is granted a {@code
   * network.connect} scope on them: the operator's own services (a test server, an internal host).
   * Empty by default, so every granted name must resolve to a public address. An operator's
   * setting, never a package's; plans bind it.
   */
  public static final String CHILD_JVM_EGRESS_PRIVATE_ADDRESS_NAMES = ChildJvmExecutorProvider.EGRESS_PRIVATE_ADDRESS_NAMES;

  /**
   * The {@link ExecutorConfig} setting, {@code true} or {@code false} (the default), that lets the
   * in-process executor run a capability granted {@code network.connect} with the host's whole
   * network, unfiltered; by default such a run is refused with {@code NETWORK_FILTER_UNAVAILABLE}.
   */
  public static final String IN_PROCESS_ALLOW_HOST_NETWORK = InProcessExecutorProvider.ALLOW_HOST_NETWORK;

  private CapabilityExecutors() {}

  /**
   * A child-JVM executor on the backend the kernel's one selection rule chooses
   * ({@link BackendSelection}) among the backends on this module's class path, found through the
   * kernel's registry ({@link Backends#discover}): the strongest available backend that supplies
   * {@link #CHILD_JVM_ISOLATION}. The choice is made now, before anything is planned, because the
   * backend's id is part of the executor's identity and so of every plan's fingerprint. Never the
   * unisolated {@code process} backend. The executor closes the backends it found.
   *
   * @param baseDirectory where relative effect scopes resolve; granted paths must lie under it
   * @throws dev.capability.kernel.api.BackendUnavailableException {@code ISOLATION_UNAVAILABLE}
   *     naming every backend and why it does not fit, when none does; {@code BACKEND_DUPLICATE}
   *     naming both classes when two backend providers claim one id
   */
  public static Executor childJvm(Path baseDirectory) {
    return childJvm(baseDirectory, Set.of());
  }

  /**
   * A child-JVM executor as {@link #childJvm(Path)} whose runs' egress proxy lets the granted names
   * among {@code egressPrivateAddressNames} resolve to loopback or private addresses (see {@link
   * #CHILD_JVM_EGRESS_PRIVATE_ADDRESS_NAMES}).
   *
   * @throws IllegalArgumentException for a name that is not a lower-case DNS name
   */
  public static Executor childJvm(Path baseDirectory, Set<String> egressPrivateAddressNames) {
    Backends found = discovered();
    try {
      return ChildJvmExecutor.choosing(found, true, baseDirectory, Optional.empty()).withEgress(Optional.empty(), egressPrivateAddressNames);
    } catch (RuntimeException e) {
      found.close();
      throw e;
    }
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
    return childJvm(backendId, allowUnisolated, baseDirectory, Set.of());
  }

  /**
   * A child-JVM executor as {@link #childJvm(String, boolean, Path)} whose runs' egress proxy lets
   * the granted names among {@code egressPrivateAddressNames} resolve to loopback or private
   * addresses (see {@link #CHILD_JVM_EGRESS_PRIVATE_ADDRESS_NAMES}).
   *
   * @throws IllegalArgumentException for a name that is not a lower-case DNS name
   */
  public static Executor childJvm(String backendId, boolean allowUnisolated, Path baseDirectory, Set<String> egressPrivateAddressNames) {
    Backends found = discovered();
    try {
      return ChildJvmExecutor.named(found, true, backendId, allowUnisolated, baseDirectory, Optional.empty())
          .withEgress(Optional.empty(), egressPrivateAddressNames);
    } catch (RuntimeException e) {
      found.close();
      throw e;
    }
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
    Optional<Path> archive = Optional.of(Objects.requireNonNull(classDataArchive, "classDataArchive"));
    return ChildJvmExecutor.named(discovered(), true, backendId, allowUnisolated, baseDirectory, archive);
  }

  private static Backends discovered() {
    return Backends.discover(CapabilityExecutors.class.getClassLoader(), BackendConfig.defaults());
  }
}
