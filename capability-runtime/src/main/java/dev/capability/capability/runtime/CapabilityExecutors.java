package dev.capability.capability.runtime;

import dev.capability.capability.runtime.internal.exec.ChildJvmExecutor;
import java.nio.file.Path;
import java.util.List;

/** The executors this module provides, for hosts that configure one by hand. */
public final class CapabilityExecutors {
  /** The id of the child-JVM executor. */
  public static final String CHILD_JVM = ChildJvmExecutor.ID;

  private CapabilityExecutors() {}

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
}
