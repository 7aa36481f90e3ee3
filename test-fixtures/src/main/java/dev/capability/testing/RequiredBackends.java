package dev.capability.testing;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test does when something it needs from the machine is missing (a sandbox backend, the
 * resource limits, libseccomp): it is skipped with the reason, or, with the environment variable
 * {@value #VARIABLE} set to {@code 1} (as in CI, where everything is installed), it fails, so a
 * broken installation cannot pass as skipped tests. The backend contract suite's {@code
 * BackendGate} applies the same rule to whole backends.
 */
public final class RequiredBackends {
  /** Set to {@code 1} to make a missing backend fail its tests instead of skipping them. */
  public static final String VARIABLE = "CAPABILITY_REQUIRE_BACKENDS";

  private RequiredBackends() {}

  /** True when {@value #VARIABLE} is {@code 1}. */
  public static boolean required() {
    return "1".equals(System.getenv(VARIABLE));
  }

  /**
   * Skips the calling test because of {@code reason}, or fails it when backends are required;
   * never returns.
   *
   * @param <V> any type, so that a caller can {@code throw} or {@code return} the call
   * @throws org.opentest4j.TestAbortedException so that the calling test is skipped
   * @throws AssertionError instead, when backends are required
   */
  public static <V> V skipOrFail(String reason) {
    if (required()) {
      return Assertions.fail(reason + " (" + VARIABLE + "=1 requires it)");
    }
    return Assumptions.abort(reason + " (set " + VARIABLE + "=1 to fail instead)");
  }
}
