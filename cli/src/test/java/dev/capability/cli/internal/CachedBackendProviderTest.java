package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.testing.Ownership;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A decision's backend comes from the cache while the backend's identity is unchanged, and from a
 * live probe when it changed. The provider here (an in-JVM seam) counts its probes; the identity is
 * the real one the CLI reads, the Docker daemon's socket being a file of the test's.
 */
class CachedBackendProviderTest {
  @TempDir Path tmp;
  private final List<String> notices = new ArrayList<>();
  private Path socket;
  private Map<String, String> environment;
  private BackendProbeCache cache;
  private final Counting real = new Counting();

  /** Counts probes; its backend reports two capabilities and a version. */
  private static final class Counting implements BackendProvider {
    int probes;
    final List<BackendConfig> configs = new ArrayList<>();

    @Override
    public String id() {
      return "docker";
    }

    @Override
    public Availability probe() {
      probes++;
      return Availability.available("counted");
    }

    @Override
    public ExecutionBackend create(BackendConfig config) {
      configs.add(config);
      return new ExecutionBackend() {
        @Override
        public String id() {
          return "docker";
        }

        @Override
        public Set<IsolationCapability> capabilities() {
          return Set.of(IsolationCapability.PID_NAMESPACE, IsolationCapability.READ_ONLY_ROOT);
        }

        @Override
        public Map<String, String> versions() {
          return Map.of("engine", "24.0.7");
        }

        @Override
        public LaunchResult launch(LaunchSpec spec) {
          throw new AssertionError("a probe never launches through the backend it created");
        }
      };
    }
  }

  @BeforeEach
  void fixtures() throws Exception {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx------"));
    socket = Files.createFile(tmp.resolve("docker.sock"));
    environment = Map.of("DOCKER_HOST", "unix://" + socket);
    cache = new BackendProbeCache(Optional.of(tmp.resolve("cache").resolve("capability").resolve("backend-probes")), notices::add);
  }

  private CachedBackendProvider provider() {
    return CachedBackendProvider.of(real, cache, environment);
  }

  @Test
  void aLaterDecisionIsAnsweredFromTheCacheAndTheDescriptionCannotLaunch() {
    assertThat(provider().probe().available()).isTrue();
    assertThat(real.probes).isEqualTo(1);

    CachedBackendProvider later = provider();
    assertThat(later.probe().available()).isTrue();
    ExecutionBackend described = later.create(BackendConfig.defaults());

    assertThat(real.probes).as("the second decision probed nothing").isEqualTo(1);
    assertThat(described.capabilities()).containsExactlyInAnyOrder(IsolationCapability.PID_NAMESPACE, IsolationCapability.READ_ONLY_ROOT);
    assertThat(described.versions()).containsEntry("engine", "24.0.7");
    assertThatThrownBy(() -> described.launch(null)).isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot launch");
    assertThat(notices).isEmpty();
  }

  @Test
  void withoutLiveProbesACacheMissIsUnavailableAndProbesNothingAndAHitStillAnswers() {
    CachedBackendProvider missing = provider();
    int available = CachedBackendProvider.withoutLiveProbes(() -> missing.probe().available() ? 1 : 0);

    assertThat(available).as("a miss is unavailable").isZero();
    assertThat(missing.probe().reason()).isEqualTo("not probed: the class data training probes no backend");
    assertThat(real.probes).as("and probed nothing").isZero();
    assertThat(cache.read("docker", BackendIdentity.of("docker", real.getClass(), environment).orElseThrow())).as("nor was kept").isEmpty();

    provider().probe();
    assertThat(real.probes).as("outside it, a miss is probed live").isEqualTo(1);
    assertThat(CachedBackendProvider.withoutLiveProbes(() -> provider().probe().available() ? 1 : 0)).as("a hit still answers").isEqualTo(1);
    assertThat(real.probes).isEqualTo(1);
  }

  @Test
  void aDecisionCreatesTheBackendWithoutDiagnosisAndDoctorsLiveProbeWithIt() {
    provider().probe();
    CachedBackendProvider.probeLive(real, cache, environment, BackendConfig.forDiagnosis());

    assertThat(real.configs).extracting(BackendConfig::diagnosing).containsExactly(false, true);
  }

  @Test
  void aRestartedDaemonANewSocketIsProbedAgain() throws Exception {
    provider().probe();
    Files.delete(socket);
    Files.createFile(socket);

    provider().probe();
    assertThat(real.probes).isEqualTo(2);
    provider().probe();
    assertThat(real.probes).isEqualTo(2);
  }

  @Test
  void anotherDaemonAddressIsProbedAgain() throws Exception {
    provider().probe();
    Path other = Files.createFile(tmp.resolve("other.sock"));

    CachedBackendProvider.of(real, cache, Map.of("DOCKER_HOST", "unix://" + other)).probe();
    assertThat(real.probes).isEqualTo(2);
  }

  @Test
  void anotherImageNamedByTheOperatorIsProbedAgainNeverAnsweredFromTheCacheOfAnother() {
    provider().probe();
    Map<String, String> named = new HashMap<>(environment);
    named.put("CAPABILITY_DOCKER_IMAGE", "example/tools:1");

    CachedBackendProvider.of(real, cache, named).probe();
    assertThat(real.probes).as("the default image's entry does not answer for a named image").isEqualTo(2);
    CachedBackendProvider.of(real, cache, named).probe();
    assertThat(real.probes).as("the same image is answered from the cache").isEqualTo(2);

    named.put("CAPABILITY_DOCKER_IMAGE", "example/tools:2");
    CachedBackendProvider.of(real, cache, named).probe();
    assertThat(real.probes).as("another image").isEqualTo(3);
    provider().probe();
    assertThat(real.probes).as("back to the default image").isEqualTo(4);
  }

  /** The ways a cache entry is attacked; each is refused. */
  enum Attack {
    GROUP_WRITABLE, FOREIGN_OWNER, CORRUPT, SYMBOLIC_LINK
  }

  @ParameterizedTest
  @EnumSource(Attack.class)
  void anAttackedEntryIsRefusedSaidOnceAndTheBackendIsProbedLive(Attack attack) throws Exception {
    provider().probe();
    Path entry = tmp.resolve("cache/capability/backend-probes/docker.properties");
    switch (attack) {
      case GROUP_WRITABLE -> Files.setPosixFilePermissions(entry, PosixFilePermissions.fromString("rw-rw----"));
      case FOREIGN_OWNER -> {
        assumeTrue(Ownership.currentUid() == 0, "giving a file to another uid needs root");
        Files.setAttribute(entry, "unix:uid", 4242, LinkOption.NOFOLLOW_LINKS);
      }
      case CORRUPT -> Files.writeString(entry, "{\"available\": true, \"capabilities\": [\"PID_NAMESPACE\"]}");
      case SYMBOLIC_LINK -> {
        Path planted = tmp.resolve("planted.properties");
        Files.move(entry, planted);
        Files.createSymbolicLink(entry, planted);
      }
    }

    assertThat(provider().probe().available()).isTrue();
    assertThat(real.probes).as("probed live again").isEqualTo(2);
    assertThat(notices).singleElement().asString().contains("was refused").contains("probing docker live");

    provider().probe();
    assertThat(real.probes).as("the live probe replaced the refused entry").isEqualTo(2);
  }
}
