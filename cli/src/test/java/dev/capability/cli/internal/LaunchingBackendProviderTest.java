package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run asks the probe cache only whether a backend is available; the backend it launches with is
 * always the real provider's, created (and so probed) live. A cached "unavailable", or a changed
 * identity, is probed live again. The provider here (an in-JVM seam) counts its probes and
 * creations; the identity is the real one the CLI reads, the Docker daemon's socket being a file of
 * the test's.
 */
class LaunchingBackendProviderTest {
  @TempDir Path tmp;
  private final List<String> notices = new ArrayList<>();
  private final Counting real = new Counting();
  private Path socket;
  private Map<String, String> environment;
  private BackendProbeCache cache;

  /** Counts probes and creations; available unless told otherwise. */
  private static final class Counting implements BackendProvider {
    final List<ExecutionBackend> created = new ArrayList<>();
    boolean available = true;
    int probes;

    @Override
    public String id() {
      return "docker";
    }

    @Override
    public Availability probe() {
      probes++;
      return available ? Availability.available("counted") : Availability.unavailable("the daemon is down");
    }

    @Override
    public ExecutionBackend create(BackendConfig config) {
      ExecutionBackend backend = new ExecutionBackend() {
        @Override
        public String id() {
          return "docker";
        }

        @Override
        public Set<IsolationCapability> capabilities() {
          return Set.of(IsolationCapability.PID_NAMESPACE);
        }

        @Override
        public LaunchResult launch(LaunchSpec spec) {
          throw new AssertionError("nothing is launched here");
        }
      };
      created.add(backend);
      return backend;
    }
  }

  @BeforeEach
  void fixtures() throws Exception {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx------"));
    socket = Files.createFile(tmp.resolve("docker.sock"));
    environment = Map.of("DOCKER_HOST", "unix://" + socket);
    cache = new BackendProbeCache(Optional.of(tmp.resolve("cache").resolve("capability").resolve("backend-probes")), notices::add);
  }

  private LaunchingBackendProvider wrapping(BackendProvider provider) {
    return LaunchingBackendProvider.of(provider, cache, environment);
  }

  @Test
  void aCachedAvailableBackendIsNotProbedTwiceAndIsCreatedByTheRealProvider() {
    CachedBackendProvider.probeLive(real, cache, environment, BackendConfig.defaults());
    int probes = real.probes;
    int creations = real.created.size();

    LaunchingBackendProvider run = wrapping(real);
    assertThat(run.probe().available()).isTrue();
    assertThat(real.probes).as("availability came from the cache").isEqualTo(probes);

    ExecutionBackend backend = run.create(BackendConfig.defaults());
    assertThat(real.created).hasSize(creations + 1);
    assertThat(backend).as("the real provider's backend, not a description").isSameAs(real.created.get(creations));
    assertThat(notices).isEmpty();
  }

  @Test
  void aCachedUnavailableBackendIsProbedLiveAgain() {
    real.available = false;
    CachedBackendProvider.probeLive(real, cache, environment, BackendConfig.defaults());
    real.available = true;

    assertThat(wrapping(real).probe().available()).as("a run is not refused on a cached answer").isTrue();
    assertThat(real.probes).isEqualTo(2);
  }

  @Test
  void aChangedIdentityIsProbedLiveAgain() throws Exception {
    CachedBackendProvider.probeLive(real, cache, environment, BackendConfig.defaults());
    Files.delete(socket);
    Files.createFile(socket);

    wrapping(real).probe();
    assertThat(real.probes).isEqualTo(2);
    wrapping(real).probe();
    assertThat(real.probes).as("the live probe was kept").isEqualTo(2);
  }

  @Test
  void withoutAnEntryTheBackendIsProbedLiveAndTheOutcomeKept() {
    assertThat(wrapping(real).probe().available()).isTrue();
    assertThat(real.probes).isEqualTo(1);

    wrapping(real).probe();
    assertThat(real.probes).isEqualTo(1);
  }
}
