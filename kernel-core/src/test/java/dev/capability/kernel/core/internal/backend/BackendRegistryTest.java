package dev.capability.kernel.core.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Selection rules, with in-JVM backends that only report an id and capabilities (they never launch). */
class BackendRegistryTest {

  private record Reporting(String id, Set<IsolationCapability> capabilities) implements ExecutionBackend {
    @Override
    public LaunchResult launch(LaunchSpec spec) {
      throw new AssertionError("selection must not launch");
    }
  }

  private record Provider(String id, BackendProvider.Availability availability, ExecutionBackend backend)
      implements BackendProvider {
    @Override
    public Availability probe() {
      return availability;
    }

    @Override
    public ExecutionBackend create(BackendConfig config) {
      return backend;
    }
  }

  private static final Reporting WEAK = new Reporting("weak", Set.of(IsolationCapability.SESSION_TERMINATION));
  private static final Reporting STRONG = new Reporting("strong",
      Set.of(IsolationCapability.SESSION_TERMINATION, IsolationCapability.PID_NAMESPACE, IsolationCapability.NETWORK_NAMESPACE));

  @Test
  void picksTheStrongestBackendThatSuppliesEveryRequiredCapability() {
    BackendRegistry registry = BackendRegistry.create(Map.of(), List.of(WEAK, STRONG), BackendConfig.defaults());

    assertThat(registry.select(Optional.empty(), Set.of()).id()).isEqualTo("strong");
    assertThat(registry.select(Optional.empty(), Set.of(IsolationCapability.PID_NAMESPACE)).id()).isEqualTo("strong");
    assertThat(registry.select(Optional.of("weak"), Set.of()).id()).isEqualTo("weak");
  }

  @Test
  void aRequiredCapabilityNoBackendSuppliesFailsClosedNamingIt() {
    BackendRegistry registry = BackendRegistry.create(Map.of(), List.of(WEAK, STRONG), BackendConfig.defaults());

    assertThatThrownBy(() -> registry.select(Optional.empty(), Set.of(IsolationCapability.SECCOMP)))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("SECCOMP")
        .extracting(e -> ((BackendUnavailableException) e).code()).isEqualTo("ISOLATION_UNAVAILABLE");
    assertThatThrownBy(() -> registry.select(Optional.of("weak"), Set.of(IsolationCapability.PID_NAMESPACE)))
        .extracting(e -> ((BackendUnavailableException) e).code()).isEqualTo("ISOLATION_UNAVAILABLE");
  }

  @Test
  void anUnknownIdNamesTheArtifactToAdd() {
    BackendRegistry registry = BackendRegistry.create(Map.of(), List.of(WEAK), BackendConfig.defaults());

    assertThatThrownBy(() -> registry.select(Optional.of("docker"), Set.of()))
        .hasMessageContaining("capability-backend-docker")
        .extracting(e -> ((BackendUnavailableException) e).code()).isEqualTo("BACKEND_UNKNOWN");
  }

  @Test
  void anUnavailableBackendIsReportedWithItsProbeReasonAndNeverCreated() {
    Provider broken = new Provider("bwrap", BackendProvider.Availability.unavailable("bwrap is not installed"), STRONG);
    BackendRegistry registry = BackendRegistry.create(Map.of("bwrap", broken), List.of(WEAK), BackendConfig.defaults());

    assertThatThrownBy(() -> registry.select(Optional.of("bwrap"), Set.of()))
        .hasMessageContaining("bwrap is not installed")
        .extracting(e -> ((BackendUnavailableException) e).code()).isEqualTo("BACKEND_UNAVAILABLE");
    assertThat(registry.select(Optional.empty(), Set.of()).id()).isEqualTo("weak");
    assertThat(registry.statuses()).extracting(s -> s.id() + ":" + s.available())
        .containsExactly("weak:true", "bwrap:false");
  }

  @Test
  void aBackendThatCannotBeCreatedAsConfiguredIsUnavailableWithTheReason() {
    BackendProvider misconfigured = new BackendProvider() {
      @Override
      public String id() {
        return "bwrap";
      }

      @Override
      public Availability probe() {
        return Availability.available("installed");
      }

      @Override
      public ExecutionBackend create(BackendConfig config) {
        throw new BackendUnavailableException(BackendUnavailableException.UNAVAILABLE, "bwrap.memory is set but no memory controller is writable");
      }
    };
    BackendRegistry registry = BackendRegistry.create(Map.of("bwrap", misconfigured), List.of(WEAK), BackendConfig.defaults());

    assertThatThrownBy(() -> registry.select(Optional.of("bwrap"), Set.of()))
        .hasMessageContaining("no memory controller")
        .extracting(e -> ((BackendUnavailableException) e).code()).isEqualTo("BACKEND_UNAVAILABLE");
    assertThat(registry.select(Optional.empty(), Set.of()).id()).isEqualTo("weak");
  }

  @Test
  void twoProvidersWithOneIdAreAStartupError() {
    Provider first = new Provider("same", BackendProvider.Availability.available("x"), WEAK);
    Provider second = new Provider("same", BackendProvider.Availability.available("y"), STRONG);

    assertThatThrownBy(() -> BackendDiscovery.byId(List.of(first, second)))
        .extracting(e -> ((BackendUnavailableException) e).code()).isEqualTo("BACKEND_DUPLICATE");
    assertThatThrownBy(() -> BackendRegistry.create(Map.of("weak", new Provider("weak",
            BackendProvider.Availability.available("x"), WEAK)), List.of(WEAK), BackendConfig.defaults()))
        .extracting(e -> ((BackendUnavailableException) e).code()).isEqualTo("BACKEND_DUPLICATE");
  }

  @Test
  void theProcessBackendIsFoundOnTheClassPathByServiceLoader() {
    assertThat(BackendDiscovery.discover(getClass().getClassLoader())).containsKey("process");
  }
}
