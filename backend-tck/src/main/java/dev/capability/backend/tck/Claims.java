package dev.capability.backend.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import java.util.Arrays;
import java.util.List;

/** Judges an attack: what it proves about the capabilities a backend may advertise. */
final class Claims {
  /** Exit status of an attack fixture that found its way blocked. */
  static final int BLOCKED = 10;

  private Claims() {}

  /**
   * Passes when the attack failed, or when it succeeded and the backend advertises none of the
   * capabilities it breaks.
   *
   * @param succeeded whether the attack had its effect
   * @param evidence what the attack achieved, for the failure message; never secret values
   * @param broken the capabilities a successful attack disproves
   */
  static void attackFailsOrIsNotClaimed(
      ExecutionBackend backend, boolean succeeded, String evidence, IsolationCapability... broken) {
    if (!succeeded) {
      return;
    }
    List<IsolationCapability> disproved = Arrays.asList(broken);
    assertThat(backend.capabilities())
        .as("the attack succeeded (%s), so the backend must not advertise %s", evidence, disproved)
        .doesNotContainAnyElementsOf(disproved);
  }

  /**
   * Fails the test when an attack fixture ended in none of {@code statuses}: the tool it needs is
   * missing in the command's view, or it broke, so its outcome would prove nothing.
   */
  static void fixtureRan(LaunchResult result, Integer... statuses) {
    if (result.exitCode().isPresent()
        && Arrays.asList(statuses).contains(result.exitCode().getAsInt())) {
      return;
    }
    fail(
        "the attack fixture did not run as intended (expected exit status %s): %s%nstdout: %s%n"
            + "stderr: %s",
        Arrays.toString(statuses), result, result.stdout().text(), result.stderr().text());
  }
}
