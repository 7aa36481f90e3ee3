package dev.capability.backend.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

class BackendGateTest {

  /** A provider whose probe answers as told, counting probes, creations and closes. */
  static final class CountingProvider implements BackendProvider {
    final boolean available;
    final AtomicInteger probes = new AtomicInteger();
    final AtomicInteger creations = new AtomicInteger();
    final AtomicInteger closes = new AtomicInteger();

    CountingProvider(boolean available) {
      this.available = available;
    }

    @Override
    public String id() {
      return "counting";
    }

    @Override
    public Availability probe() {
      probes.incrementAndGet();
      return available
          ? Availability.available("here")
          : Availability.unavailable("no such sandbox installed");
    }

    @Override
    public ExecutionBackend create(BackendConfig config) {
      creations.incrementAndGet();
      return new ExecutionBackend() {
        @Override
        public String id() {
          return "counting";
        }

        @Override
        public Set<IsolationCapability> capabilities() {
          return Set.of();
        }

        @Override
        public LaunchResult launch(LaunchSpec spec) {
          throw new UnsupportedOperationException("never launched here");
        }

        @Override
        public void close() {
          closes.incrementAndGet();
        }
      };
    }
  }

  @Test
  void skipsWithTheProbeReasonWhenTheBackendCannotRunHere() {
    CountingProvider provider = new CountingProvider(false);
    BackendGate gate = new BackendGate(provider, BackendConfig.defaults(), false);

    assertThatThrownBy(gate::backend)
        .isInstanceOf(TestAbortedException.class)
        .hasMessageContaining("counting")
        .hasMessageContaining("no such sandbox installed")
        .hasMessageContaining(BackendGate.REQUIRE_VARIABLE);
    assertThatThrownBy(gate::backend).isInstanceOf(TestAbortedException.class);
    assertThat(provider.probes).hasValue(1);
    assertThat(provider.creations).hasValue(0);
  }

  @Test
  void failsInsteadOfSkippingWhenBackendsAreRequired() {
    BackendGate gate = new BackendGate(new CountingProvider(false), BackendConfig.defaults(), true);

    assertThatThrownBy(gate::backend)
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("no such sandbox installed")
        .hasMessageContaining(BackendGate.REQUIRE_VARIABLE + "=1");
  }

  @Test
  void probesAndCreatesOnceThenClosesWhatItCreated() {
    CountingProvider provider = new CountingProvider(true);
    BackendGate gate = new BackendGate(provider, BackendConfig.defaults(), true);

    ExecutionBackend first = gate.backend();
    ExecutionBackend second = gate.backend();
    gate.close();
    gate.close();

    assertThat(second).isSameAs(first);
    assertThat(provider.probes).hasValue(1);
    assertThat(provider.creations).hasValue(1);
    assertThat(provider.closes).hasValue(1);
  }
}
