package dev.capability.kernel.core;

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
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The public face of the kernel's registry, with in-JVM backends that only report (they never launch). */
class BackendsTest {
  private static final Set<IsolationCapability> SANDBOX = Set.of(
      IsolationCapability.PID_NAMESPACE, IsolationCapability.READ_ONLY_ROOT, IsolationCapability.NON_ROOT);

  private static final class Reporting implements ExecutionBackend {
    private final String id;
    private final Set<IsolationCapability> capabilities;
    final AtomicInteger closed = new AtomicInteger();

    Reporting(String id, Set<IsolationCapability> capabilities) {
      this.id = id;
      this.capabilities = capabilities;
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public Set<IsolationCapability> capabilities() {
      return capabilities;
    }

    @Override
    public LaunchResult launch(LaunchSpec spec) {
      throw new AssertionError("selection must not launch");
    }

    @Override
    public void close() {
      closed.incrementAndGet();
    }
  }

  /** A provider counting its probes. */
  private static final class Counting implements BackendProvider {
    final Reporting backend;
    final AtomicInteger probes = new AtomicInteger();

    Counting(Reporting backend) {
      this.backend = backend;
    }

    @Override
    public String id() {
      return backend.id();
    }

    @Override
    public Availability probe() {
      probes.incrementAndGet();
      return Availability.available("reports only");
    }

    @Override
    public ExecutionBackend create(BackendConfig config) {
      return backend;
    }
  }

  /** Another provider class claiming a taken id. */
  private static final class Impostor implements BackendProvider {
    @Override
    public String id() {
      return "sandbox";
    }

    @Override
    public Availability probe() {
      throw new AssertionError("a duplicate is refused before anything is probed");
    }

    @Override
    public ExecutionBackend create(BackendConfig config) {
      throw new AssertionError("a duplicate is refused before anything is created");
    }
  }

  @Test
  void twoProvidersWithOneIdAreRefusedWhenTheRegistryIsMadeNamingBothClasses() {
    Counting sandbox = new Counting(new Reporting("sandbox", SANDBOX));

    assertThatThrownBy(() -> Backends.of(List.of(sandbox, new Impostor()), BackendConfig.defaults()))
        .isInstanceOfSatisfying(BackendUnavailableException.class, e -> assertThat(e.code()).isEqualTo(BackendUnavailableException.DUPLICATE))
        .hasMessageContaining("'sandbox'")
        .hasMessageContaining(Counting.class.getName())
        .hasMessageContaining(Impostor.class.getName());
  }

  @Test
  void providersAreProbedOnceOnFirstUseAndTheirBackendsClosedWithTheRegistry() {
    Counting weak = new Counting(new Reporting("weak", Set.of(IsolationCapability.SESSION_TERMINATION)));
    Counting strong = new Counting(new Reporting("strong", SANDBOX));
    Backends backends = Backends.of(List.of(weak, strong), BackendConfig.defaults());
    assertThat(weak.probes).as("nothing probed before it is asked for").hasValue(0);

    assertThat(backends.select(Set.of(), false).id()).isEqualTo("strong");
    assertThat(backends.select("weak", Set.of()).id()).isEqualTo("weak");
    assertThat(backends.statuses()).hasSize(2);
    assertThat(weak.probes).hasValue(1);
    assertThat(strong.probes).hasValue(1);

    backends.close();
    assertThat(weak.backend.closed).hasValue(1);
    assertThat(strong.backend.closed).hasValue(1);
    assertThatThrownBy(() -> backends.select(Set.of(), false)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void givenBackendsAreUsedButNeverClosed() {
    Reporting given = new Reporting("given", SANDBOX);
    try (Backends backends = Backends.given(List.of(given))) {
      assertThat(backends.select(Set.of(IsolationCapability.NON_ROOT), false)).isSameAs(given);
    }
    assertThat(given.closed).hasValue(0);
  }
}
