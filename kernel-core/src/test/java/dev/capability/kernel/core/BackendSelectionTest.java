package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The one rule that chooses a backend nobody named, with in-JVM backends that only report (they never launch). */
class BackendSelectionTest {

  private record Reporting(String id, Set<IsolationCapability> capabilities) implements ExecutionBackend {
    @Override
    public LaunchResult launch(LaunchSpec spec) {
      throw new AssertionError("selection must not launch");
    }
  }

  private static final Reporting PROCESS = new Reporting("process", Set.of(IsolationCapability.SESSION_TERMINATION));
  private static final Reporting SANDBOX = new Reporting("sandbox",
      Set.of(IsolationCapability.SESSION_TERMINATION, IsolationCapability.NETWORK_NAMESPACE, IsolationCapability.NON_ROOT));
  private static final Reporting ANOTHER = new Reporting("another",
      Set.of(IsolationCapability.SESSION_TERMINATION, IsolationCapability.NETWORK_NAMESPACE, IsolationCapability.PID_NAMESPACE));

  @Test
  void theBackendWithTheMostCapabilitiesThatSuppliesEveryRequiredOneIsChosen() {
    assertThat(BackendSelection.strongest(List.of(PROCESS, SANDBOX), Set.of())).contains(SANDBOX);
    assertThat(BackendSelection.strongest(List.of(PROCESS, SANDBOX, ANOTHER), Set.of(IsolationCapability.NON_ROOT)))
        .contains(SANDBOX);
    assertThat(BackendSelection.strongest(List.of(PROCESS), Set.of(IsolationCapability.NETWORK_NAMESPACE))).isEmpty();
  }

  @Test
  void betweenEqualsTheIdThatSortsFirstIsChosenWhateverTheOrder() {
    assertThat(BackendSelection.strongest(List.of(SANDBOX, ANOTHER), Set.of())).contains(ANOTHER);
    assertThat(BackendSelection.strongest(List.of(ANOTHER, SANDBOX), Set.of())).contains(ANOTHER);
  }

  @Test
  void selectingFromTheClassPathNeverFallsBackToTheUnisolatedProcessBackend() {
    // Only the process backend is on this module's test class path.
    assertThatThrownBy(() -> BackendSelection.select(
            BackendSelectionTest.class.getClassLoader(), BackendConfig.defaults(), Set.of(IsolationCapability.NETWORK_NAMESPACE)))
        .isInstanceOfSatisfying(BackendUnavailableException.class,
            e -> assertThat(e.code()).isEqualTo(BackendUnavailableException.ISOLATION_UNAVAILABLE))
        .hasMessageContaining("NETWORK_NAMESPACE")
        .hasMessageContaining("process");
  }

  @Test
  void whatNothingIsRequiredOfEveryBackendFitsAndTheStrongestOnTheClassPathIsChosen() {
    try (ExecutionBackend chosen =
        BackendSelection.select(BackendSelectionTest.class.getClassLoader(), BackendConfig.defaults(), Set.of())) {
      assertThat(chosen.id()).isEqualTo("process");
      assertThat(chosen.capabilities()).isNotEmpty();
    }
  }
}
