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
      Set.of(IsolationCapability.SESSION_TERMINATION, IsolationCapability.NETWORK_NAMESPACE, IsolationCapability.NON_ROOT,
          IsolationCapability.PID_NAMESPACE, IsolationCapability.READ_ONLY_ROOT));
  private static final Reporting ANOTHER = new Reporting("another",
      Set.of(IsolationCapability.SESSION_TERMINATION, IsolationCapability.SECCOMP, IsolationCapability.NON_ROOT,
          IsolationCapability.PID_NAMESPACE, IsolationCapability.READ_ONLY_ROOT));
  /** Many capabilities, but without a read-only root it is not a sandbox. */
  private static final Reporting WIDE_OPEN = new Reporting("wide-open",
      Set.of(IsolationCapability.SESSION_TERMINATION, IsolationCapability.TREE_TERMINATION, IsolationCapability.NON_ROOT,
          IsolationCapability.PID_NAMESPACE, IsolationCapability.NETWORK_NAMESPACE, IsolationCapability.MEMORY_LIMIT,
          IsolationCapability.PID_LIMIT, IsolationCapability.CPU_LIMIT));

  @Test
  void theSandboxWithTheMostCapabilitiesThatSuppliesEveryRequiredOneIsChosen() {
    assertThat(BackendSelection.strongest(List.of(PROCESS, SANDBOX), Set.of())).contains(SANDBOX);
    assertThat(BackendSelection.strongest(List.of(PROCESS, SANDBOX, ANOTHER), Set.of(IsolationCapability.NETWORK_NAMESPACE)))
        .contains(SANDBOX);
    assertThat(BackendSelection.strongest(List.of(PROCESS), Set.of(IsolationCapability.NETWORK_NAMESPACE))).isEmpty();
  }

  @Test
  void aBackendIsASandboxOnlyWithAPidNamespaceAReadOnlyRootAndNoRealRoot() {
    assertThat(BackendSelection.isSandbox(SANDBOX.capabilities())).isTrue();
    assertThat(BackendSelection.isSandbox(PROCESS.capabilities())).isFalse();
    assertThat(BackendSelection.isSandbox(WIDE_OPEN.capabilities())).isFalse();
    assertThat(BackendSelection.strongest(List.of(WIDE_OPEN, SANDBOX), Set.of())).contains(SANDBOX);
  }

  @Test
  void aBackendThatIsNotASandboxIsNeverTheStrongestWhateverItSupplies() {
    assertThat(BackendSelection.strongest(List.of(PROCESS, WIDE_OPEN), Set.of())).isEmpty();
    assertThat(BackendSelection.strongestUnisolated(List.of(PROCESS, WIDE_OPEN, SANDBOX), Set.of())).contains(WIDE_OPEN);
    assertThat(BackendSelection.strongestUnisolated(List.of(PROCESS), Set.of(IsolationCapability.NETWORK_NAMESPACE))).isEmpty();
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
  void evenWithNothingRequiredTheUnisolatedProcessBackendIsNeverSelectedFromTheClassPath() {
    assertThatThrownBy(() -> BackendSelection.select(
            BackendSelectionTest.class.getClassLoader(), BackendConfig.defaults(), Set.of()))
        .isInstanceOfSatisfying(BackendUnavailableException.class,
            e -> assertThat(e.code()).isEqualTo(BackendUnavailableException.ISOLATION_UNAVAILABLE))
        .hasMessageContaining("process (not a sandbox");
  }
}
