package dev.capability.kernel.core.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
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
      Set.of(IsolationCapability.SESSION_TERMINATION, IsolationCapability.PID_NAMESPACE, IsolationCapability.NETWORK_NAMESPACE,
          IsolationCapability.READ_ONLY_ROOT, IsolationCapability.NON_ROOT));

  private static ExecutionBackend chosen(BackendRegistry registry, Optional<String> id, Set<IsolationCapability> required) {
    return registry.select(id, required, false).backend();
  }

  @Test
  void picksTheStrongestSandboxThatSuppliesEveryRequiredCapability() {
    BackendRegistry registry = BackendRegistry.create(Map.of(), List.of(WEAK, STRONG), BackendConfig.defaults());

    SelectedBackend selected = registry.select(Optional.empty(), Set.of(IsolationCapability.PID_NAMESPACE), false);
    assertThat(selected.backend().id()).isEqualTo("strong");
    assertThat(selected.choice()).isEqualTo(Attestation.Backend.Choice.STRONGEST_SANDBOX);
    assertThat(selected.reason()).isEqualTo("the strongest available sandbox that supplies [PID_NAMESPACE]");
    assertThat(chosen(registry, Optional.empty(), Set.of()).id()).isEqualTo("strong");
  }

  @Test
  void aNamedBackendIsUsedWhetherOrNotItIsASandbox() {
    BackendRegistry registry = BackendRegistry.create(Map.of(), List.of(WEAK, STRONG), BackendConfig.defaults());

    SelectedBackend selected = registry.select(Optional.of("weak"), Set.of(), false);
    assertThat(selected.backend().id()).isEqualTo("weak");
    assertThat(selected.choice()).isEqualTo(Attestation.Backend.Choice.NAMED);
  }

  @Test
  void withoutASandboxTheChoiceFailsClosedUnlessTheUnisolatedFallbackIsAllowed() {
    Provider broken = new Provider("bwrap",
        BackendProvider.Availability.unavailable("bwrap: creating new namespace failed: Operation not permitted"), STRONG);
    BackendRegistry registry = BackendRegistry.create(Map.of("bwrap", broken), List.of(WEAK), BackendConfig.defaults());

    assertThatThrownBy(() -> registry.select(Optional.empty(), Set.of(), false))
        .isInstanceOfSatisfying(BackendUnavailableException.class,
            e -> assertThat(e.code()).isEqualTo(BackendUnavailableException.ISOLATION_UNAVAILABLE))
        .hasMessageContaining("weak (not a sandbox, lacks [NON_ROOT, PID_NAMESPACE, READ_ONLY_ROOT])")
        .hasMessageContaining("bwrap (unavailable: bwrap: creating new namespace failed: Operation not permitted)")
        .hasMessageContaining("\"allowUnisolatedFallback\": true");
    SelectedBackend fallback = registry.select(Optional.empty(), Set.of(), true);
    assertThat(fallback.backend().id()).isEqualTo("weak");
    assertThat(fallback.choice()).isEqualTo(Attestation.Backend.Choice.UNISOLATED_FALLBACK);
    assertThat(fallback.reason()).contains("bwrap (unavailable: bwrap: creating new namespace failed")
        .contains("allowUnisolatedFallback");
  }

  @Test
  void theFallbackNeverTakesABackendThatLacksARequiredCapability() {
    BackendRegistry registry = BackendRegistry.create(Map.of(), List.of(WEAK), BackendConfig.defaults());

    assertThatThrownBy(() -> registry.select(Optional.empty(), Set.of(IsolationCapability.NETWORK_NAMESPACE), true))
        .isInstanceOfSatisfying(BackendUnavailableException.class,
            e -> assertThat(e.code()).isEqualTo(BackendUnavailableException.ISOLATION_UNAVAILABLE))
        .hasMessageContaining("weak (not a sandbox, lacks [NETWORK_NAMESPACE, NON_ROOT, PID_NAMESPACE, READ_ONLY_ROOT])")
        .hasMessageNotContaining("allowUnisolatedFallback");
  }

  @Test
  void aRequiredCapabilityNoBackendSuppliesFailsClosedNamingIt() {
    BackendRegistry registry = BackendRegistry.create(Map.of(), List.of(WEAK, STRONG), BackendConfig.defaults());

    assertThatThrownBy(() -> chosen(registry, Optional.empty(), Set.of(IsolationCapability.SECCOMP)))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("strong (a sandbox, lacks [SECCOMP])")
        .extracting(e -> ((BackendUnavailableException) e).code()).isEqualTo("ISOLATION_UNAVAILABLE");
    assertThatThrownBy(() -> chosen(registry, Optional.of("weak"), Set.of(IsolationCapability.PID_NAMESPACE)))
        .extracting(e -> ((BackendUnavailableException) e).code()).isEqualTo("ISOLATION_UNAVAILABLE");
  }

  @Test
  void anUnknownIdNamesTheArtifactToAdd() {
    BackendRegistry registry = BackendRegistry.create(Map.of(), List.of(WEAK), BackendConfig.defaults());

    assertThatThrownBy(() -> chosen(registry, Optional.of("docker"), Set.of()))
        .hasMessageContaining("capability-backend-docker")
        .extracting(e -> ((BackendUnavailableException) e).code()).isEqualTo("BACKEND_UNKNOWN");
  }

  @Test
  void anUnavailableBackendIsReportedWithItsProbeReasonAndNeverCreated() {
    Provider broken = new Provider("bwrap", BackendProvider.Availability.unavailable("bwrap is not installed"), STRONG);
    BackendRegistry registry = BackendRegistry.create(Map.of("bwrap", broken), List.of(WEAK), BackendConfig.defaults());

    assertThatThrownBy(() -> chosen(registry, Optional.of("bwrap"), Set.of()))
        .hasMessageContaining("bwrap is not installed")
        .extracting(e -> ((BackendUnavailableException) e).code()).isEqualTo("BACKEND_UNAVAILABLE");
    assertThat(chosen(registry, Optional.of("weak"), Set.of()).id()).isEqualTo("weak");
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

    assertThatThrownBy(() -> chosen(registry, Optional.of("bwrap"), Set.of()))
        .hasMessageContaining("no memory controller")
        .extracting(e -> ((BackendUnavailableException) e).code()).isEqualTo("BACKEND_UNAVAILABLE");
    assertThatThrownBy(() -> chosen(registry, Optional.empty(), Set.of()))
        .hasMessageContaining("bwrap (unavailable: BACKEND_UNAVAILABLE: bwrap.memory is set but no memory controller");
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

  /** A provider that counts its probes, so a test can tell which providers a selection touched. */
  private static final class CountingProvider implements BackendProvider {
    private final ExecutionBackend backend;
    final AtomicInteger probes = new AtomicInteger();

    CountingProvider(ExecutionBackend backend) {
      this.backend = backend;
    }

    @Override
    public String id() {
      return backend.id();
    }

    @Override
    public Availability probe() {
      probes.incrementAndGet();
      return Availability.available("counted");
    }

    @Override
    public ExecutionBackend create(BackendConfig config) {
      return backend;
    }
  }

  @Test
  void aNamedBackendProbesOnlyThatBackendAndEachProviderIsProbedAtMostOnce() {
    CountingProvider weak = new CountingProvider(WEAK);
    CountingProvider strong = new CountingProvider(STRONG);
    Map<String, BackendProvider> providers = new LinkedHashMap<>();
    providers.put("weak", weak);
    providers.put("strong", strong);
    BackendRegistry registry = BackendRegistry.create(providers, List.of(), BackendConfig.defaults());
    assertThat(weak.probes.get() + strong.probes.get()).as("creating the registry probes nothing").isZero();
    assertThat(registry.ids()).containsExactly("weak", "strong");

    assertThat(chosen(registry, Optional.of("weak"), Set.of()).id()).isEqualTo("weak");
    assertThat(weak.probes).hasValue(1);
    assertThat(strong.probes).as("a named backend leaves the others unprobed").hasValue(0);

    assertThat(chosen(registry, Optional.empty(), Set.of()).id()).isEqualTo("strong");
    registry.statuses();
    assertThat(weak.probes).hasValue(1);
    assertThat(strong.probes).hasValue(1);
  }

  @Test
  void aClosedRegistryProbesNothingMore() {
    CountingProvider strong = new CountingProvider(STRONG);
    BackendRegistry registry = BackendRegistry.create(Map.of("strong", strong), List.of(), BackendConfig.defaults());
    registry.close();

    assertThatThrownBy(() -> chosen(registry, Optional.of("strong"), Set.of())).isInstanceOf(IllegalStateException.class);
    assertThat(strong.probes).hasValue(0);
  }

  @Test
  void theProcessBackendIsFoundOnTheClassPathByServiceLoader() {
    assertThat(BackendDiscovery.discover(getClass().getClassLoader())).containsKey("process");
  }
}
