package dev.capability.capability.api;

/**
 * The entry point of a capability package: the class named by {@code entry.class} in the
 * package's {@code capability.json} implements this interface and has a public no-argument
 * constructor.
 *
 * <p>Input and output are JSON texts, so that this module needs no JSON library; the runtime has
 * already validated the input against the manifest's {@code input} schema and will validate the
 * output against its {@code output} schema.
 *
 * <p>The lifecycle hooks {@link #plan}, {@link #verify} and {@link #rollback} are optional. The
 * runtime calls a hook only when the manifest lists it under {@code hooks}; a hook runs in the same
 * boundary as {@link #execute} and never holds more authority than the forward step was granted.
 * Their defaults throw, so that a hook listed in the manifest but not written fails loudly instead
 * of silently doing nothing.
 */
public interface Capability {

  /**
   * Does the work.
   *
   * @param inputJson the input, a JSON text valid against the manifest's {@code input} schema
   * @param context what the operator granted to this run
   * @return the output, a JSON text valid against the manifest's {@code output} schema
   * @throws RuntimeException to report that the capability failed
   */
  String execute(String inputJson, CapabilityContext context);

  /**
   * Describes, without side effects, what {@link #execute} would do with this input.
   *
   * @return a JSON text describing the intended changes
   */
  default String plan(String inputJson, CapabilityContext context) {
    throw new UnsupportedOperationException("this capability has no plan hook");
  }

  /**
   * Checks after {@link #execute} that the work is really done.
   *
   * @param outputJson the output {@link #execute} returned
   * @return {@code true} when the result is verified, {@code false} when it is not
   */
  default boolean verify(String inputJson, String outputJson, CapabilityContext context) {
    throw new UnsupportedOperationException("this capability has no verify hook");
  }

  /**
   * Undoes what a failed or unverified {@link #execute} left behind, with the same grants.
   *
   * @throws RuntimeException when the rollback itself failed
   */
  default void rollback(String inputJson, CapabilityContext context) {
    throw new UnsupportedOperationException("this capability has no rollback hook");
  }
}
