package dev.capability.capability.runtime;

/**
 * A named source of one {@link Executor}, found with {@link java.util.ServiceLoader} through
 * {@link dev.capability.kernel.api.plugin.Plugins}, as backends are: putting its jar on the class
 * path is the only step needed, and two providers with one id fail the runtime's build naming both
 * classes.
 */
public interface ExecutorProvider {

  /** The executor's id, for example {@code child-jvm}; unique among all providers. */
  String id();

  /**
   * Whether this executor can run on this machine, probed here and now, without creating it. Must
   * not throw.
   */
  Availability probe();

  /**
   * Creates the executor; the caller owns it and closes it.
   *
   * @throws dev.capability.kernel.api.CapabilityException when it cannot be created as configured,
   *     for example {@code ISOLATION_UNAVAILABLE} when no backend it can use is available
   */
  Executor create(ExecutorConfig config);

  /**
   * The outcome of a probe.
   *
   * @param available true when the executor can run here
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
