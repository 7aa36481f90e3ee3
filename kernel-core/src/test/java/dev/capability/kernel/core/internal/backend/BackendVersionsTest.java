package dev.capability.kernel.core.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A backend is held to the policy's minimum versions by the leading numbers of what it reports. */
class BackendVersionsTest {
  private static ExecutionBackend reporting(Map<String, String> versions) {
    return new ExecutionBackend() {
      @Override
      public String id() {
        return "docker";
      }

      @Override
      public Set<IsolationCapability> capabilities() {
        return Set.of();
      }

      @Override
      public Map<String, String> versions() {
        return versions;
      }

      @Override
      public LaunchResult launch(LaunchSpec spec) {
        throw new AssertionError("never launched");
      }
    };
  }

  private static final ExecutionBackend DAEMON_20_10_24 =
      reporting(Map.of("daemon", "20.10.24+dfsg1", "runc", "1.1.5+ds1", "kernel", "6.18.44-fc-v657"));

  @Test
  void versionsAtOrAboveTheMinimumsPass() {
    assertThatCode(() -> BackendVersions.requireMinimums(DAEMON_20_10_24,
        Map.of("docker", Map.of("daemon", "20.10", "runc", "1.1.5", "kernel", "6"))))
        .doesNotThrowAnyException();
  }

  @Test
  void aLowerVersionIsRefusedNamingItAndTheMinimum() {
    assertThatThrownBy(() -> BackendVersions.requireMinimums(DAEMON_20_10_24,
        Map.of("docker", Map.of("daemon", "20.10.25", "runc", "1.1"))))
        .isInstanceOfSatisfying(BackendUnavailableException.class,
            e -> assertThat(e.code()).isEqualTo(BackendUnavailableException.VERSION_TOO_OLD))
        .hasMessageContaining("daemon 20.10.24+dfsg1 is older than the policy's minimum 20.10.25")
        .hasMessageNotContaining("runc 1.1.5");
  }

  @Test
  void anUnreportedOrNumberlessVersionIsRefused() {
    assertThatThrownBy(() -> BackendVersions.requireMinimums(DAEMON_20_10_24, Map.of("docker", Map.of("containerd", "1.6"))))
        .isInstanceOfSatisfying(BackendUnavailableException.class,
            e -> assertThat(e.code()).isEqualTo(BackendUnavailableException.VERSION_TOO_OLD))
        .hasMessageContaining("containerd is not reported");
    assertThatThrownBy(() -> BackendVersions.requireMinimums(reporting(Map.of("daemon", "dev")),
        Map.of("docker", Map.of("daemon", "1"))))
        .hasMessageContaining("reports no version number ('dev')");
  }

  @Test
  void minimumsOfOtherBackendsDoNotApply() {
    assertThatCode(() -> BackendVersions.requireMinimums(DAEMON_20_10_24, Map.of("bwrap", Map.of("bwrap", "99"))))
        .doesNotThrowAnyException();
  }

  @Test
  void comparesNumbersNotText() {
    assertThat(BackendVersions.compare(BackendVersions.numbers("20.9").orElseThrow(),
        BackendVersions.numbers("20.10").orElseThrow())).isNegative();
    assertThat(BackendVersions.compare(BackendVersions.numbers("1.6.20~ds1").orElseThrow(),
        BackendVersions.numbers("1.6.20").orElseThrow())).isZero();
    assertThat(BackendVersions.compare(BackendVersions.numbers("v2").orElseThrow(),
        BackendVersions.numbers("1.99").orElseThrow())).isPositive();
  }
}
