package dev.capability.backend.tck;

import static org.assertj.core.api.Assertions.fail;

import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Judges attacks on one backend: an attack that succeeded disproves capabilities, and the backend
 * must advertise none of them. Collects every finding of a test before failing, so one report shows
 * all of them.
 */
final class Claims {
  /** Exit status of an attack fixture that found its way blocked. */
  static final int BLOCKED = 10;

  private final Set<IsolationCapability> advertised;
  private final List<String> violations = new ArrayList<>();

  private Claims(ExecutionBackend backend) {
    this.advertised = EnumSet.noneOf(IsolationCapability.class);
    this.advertised.addAll(Objects.requireNonNull(backend, "backend").capabilities());
  }

  /** Starts judging attacks on {@code backend}, with the capabilities it advertises now. */
  static Claims of(ExecutionBackend backend) {
    return new Claims(backend);
  }

  /**
   * Records an attack. It passes when it failed, or when it succeeded and the backend advertises
   * none of the capabilities it breaks.
   *
   * @param succeeded whether the attack had its effect
   * @param evidence what the attack achieved, for the failure message; never secret values
   * @param broken the capabilities a successful attack disproves
   */
  Claims attack(boolean succeeded, String evidence, IsolationCapability... broken) {
    if (succeeded) {
      Set<IsolationCapability> disproved = EnumSet.noneOf(IsolationCapability.class);
      disproved.addAll(Arrays.asList(broken));
      disproved.retainAll(advertised);
      if (!disproved.isEmpty()) {
        violations.add(
            "the attack succeeded ("
                + evidence
                + "), so the backend must not advertise "
                + disproved);
      }
    }
    return this;
  }

  /** Fails the test with every recorded attack that disproved an advertised capability. */
  void verify() {
    if (!violations.isEmpty()) {
      fail(String.join(";\n", violations));
    }
  }

  /**
   * Fails the test when an attack fixture ended in none of {@code statuses}: the tool it needs is
   * missing in the command's view, or it broke, so its outcome would prove nothing. The message
   * shows stderr but not stdout, which may hold what an attack read from the host.
   */
  static void fixtureRan(LaunchResult result, Integer... statuses) {
    if (result.exitCode().isPresent()
        && Arrays.asList(statuses).contains(result.exitCode().getAsInt())) {
      return;
    }
    fail(
        "the attack fixture did not run as intended (expected exit status %s, got %s; timed out %s;"
            + " %d bytes on stdout)%nstderr: %s",
        Arrays.toString(statuses),
        result.exitCode(),
        result.timedOut(),
        result.stdout().size(),
        result.stderr().text());
  }
}
