package dev.capability.junit5;

import dev.capability.kernel.api.ExecutionResult;

/**
 * Entry point of the fluent assertions on kernel outcomes, in the style of AssertJ:
 *
 * <pre>{@code
 * assertThat(kernel.execute(request)).wasDenied().byLayer("operator");
 * assertThat(kernel.execute(build)).exitedWith(0).wroteOnly("target/**");
 * }</pre>
 */
public final class CapabilityAssertions {
  private CapabilityAssertions() {}

  /** Assertions on {@code actual}; a failure's message shows its decision and attestation. */
  public static ExecutionResultAssert assertThat(ExecutionResult actual) {
    return new ExecutionResultAssert(actual);
  }
}
