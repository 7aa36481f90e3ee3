package dev.capability.kernel.api.backend;

/**
 * A named source of one {@link ExecutionBackend}, found with {@link java.util.ServiceLoader}.
 * Putting a backend's jar on the class path is the only step needed to make it available.
 */
public interface BackendProvider {

  /** The backend's id, for example {@code process}; unique among all providers. */
  String id();

  /**
   * Whether this backend can run on this machine, probed here and now (binary present, namespaces
   * permitted, daemon reachable). Must not throw.
   */
  Availability probe();

  /**
   * Creates the backend.
   *
   * @throws dev.capability.kernel.api.BackendUnavailableException when the probe fails
   */
  ExecutionBackend create(BackendConfig config);

  /**
   * The outcome of a probe.
   *
   * @param available true when the backend can run here
   * @param reason why it cannot, or a short description of what was found when it can
   */
  record Availability(boolean available, String reason) {
    public static Availability available(String description) {
      return new Availability(true, description);
    }

    public static Availability unavailable(String reason) {
      return new Availability(false, reason);
    }
  }
}
