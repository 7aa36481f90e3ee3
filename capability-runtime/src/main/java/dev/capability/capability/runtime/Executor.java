package dev.capability.capability.runtime;

/**
 * Runs a capability package. Installed executors are created by their {@link ExecutorProvider},
 * found on the class path; the runtime picks the strongest available one unless the host names one
 * explicitly or gives one.
 */
public interface Executor extends AutoCloseable {

  /** The identity bound into plans made for this executor. */
  ExecutorIdentity identity();

  /**
   * How strongly this executor separates the capability from the host: 0 means no boundary.
   * Automatic selection takes the highest.
   */
  int isolationStrength();

  /** Whether this executor may only be used when named explicitly (never chosen automatically). */
  boolean explicitOnly();

  /** Whether this executor can run on this machine now. */
  boolean available();

  /**
   * Runs {@code request}. A capability's own failure is a failed result, not an exception; an
   * exception means the executor could not run it at all.
   */
  CapabilityResult execute(CapabilityRequest request);

  /** Releases what the executor keeps between runs (a backend it created, say); nothing by default. */
  @Override
  default void close() {}
}
