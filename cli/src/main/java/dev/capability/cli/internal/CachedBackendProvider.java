package dev.capability.cli.internal;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.plugin.Plugins;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntSupplier;

/**
 * A backend provider for decisions: it answers from the {@link BackendProbeCache} when the entry
 * was probed with the backend's present identity, else probes the real provider live (only when a
 * decision first needs this backend) and keeps what it learned. What it creates is a {@link
 * ProbedBackend}, which cannot launch.
 *
 * <p>While {@link #withoutLiveProbes} runs (the class data training, {@link ClassDataTraining}), a
 * backend the cache has nothing for is unavailable instead of probed: the training must start no
 * sandbox, container or cluster connection, whatever its records miss.
 */
final class CachedBackendProvider implements BackendProvider {
  private static volatile boolean liveProbesRefused;

  private final BackendProvider real;
  private final BackendProbeCache cache;
  private final Map<String, String> environment;
  private BackendProbe probe;

  private CachedBackendProvider(BackendProvider real, BackendProbeCache cache, Map<String, String> environment) {
    this.real = real;
    this.cache = cache;
    this.environment = environment;
  }

  /** {@code real}, answered from {@code cache} when it can be. */
  static CachedBackendProvider of(BackendProvider real, BackendProbeCache cache, Map<String, String> environment) {
    return new CachedBackendProvider(real, cache, environment);
  }

  /** One cached provider for each backend provider on the class path of {@code loader}. */
  static List<BackendProvider> forEachProvider(
      ClassLoader loader, BackendProbeCache cache, Map<String, String> environment) {
    return Plugins.load(BackendProvider.class, BackendProvider::id, loader).values().stream()
        .<BackendProvider>map(real -> new CachedBackendProvider(real, cache, environment))
        .toList();
  }

  /**
   * Probes {@code real} live, creating it with {@code config} (the default settings, with {@link
   * BackendConfig#DIAGNOSE} for doctor), and keeps the outcome under the identity read before the
   * probe (so that a change during the probe makes the entry stale, never wrong).
   */
  static BackendProbe probeLive(
      BackendProvider real, BackendProbeCache cache, Map<String, String> environment, BackendConfig config) {
    Optional<String> identity = BackendIdentity.of(real.id(), real.getClass(), environment);
    BackendProbe probe = probe(real, identity.orElse(""), config);
    identity.ifPresent(i -> cache.write(probe));
    return probe;
  }

  private static BackendProbe probe(BackendProvider real, String identity, BackendConfig config) {
    Availability availability = real.probe();
    if (!availability.available()) {
      return BackendProbe.unavailable(real.id(), identity, availability.reason());
    }
    try (ExecutionBackend backend = real.create(config)) {
      return BackendProbe.of(identity, backend);
    } catch (CapabilityException e) {
      return BackendProbe.unavailable(real.id(), identity, e.code() + ": " + e.getMessage());
    }
  }

  @Override
  public String id() {
    return real.id();
  }

  /** What {@code cache} holds for {@code real} under its present identity, if anything. */
  static Optional<BackendProbe> cached(BackendProvider real, BackendProbeCache cache, Map<String, String> environment) {
    return BackendIdentity.of(real.id(), real.getClass(), environment).flatMap(identity -> cache.read(real.id(), identity));
  }

  /** A probe's outcome as a provider answers it. */
  static Availability availability(BackendProbe probe) {
    return probe.available() ? Availability.available("probed") : Availability.unavailable(probe.reason());
  }

  /**
   * Runs {@code run} with every cache miss answered "unavailable", never probed live; returns what
   * it returns. For the class data training only, which runs alone in its JVM.
   */
  static int withoutLiveProbes(IntSupplier run) {
    liveProbesRefused = true;
    try {
      return run.getAsInt();
    } finally {
      liveProbesRefused = false;
    }
  }

  @Override
  public synchronized Availability probe() {
    if (probe == null) {
      probe = cached(real, cache, environment).orElseGet(() -> liveProbesRefused
          ? BackendProbe.unavailable(real.id(), "", "not probed: the class data training probes no backend")
          : probeLive(real, cache, environment, BackendConfig.defaults()));
    }
    return availability(probe);
  }

  @Override
  public synchronized ExecutionBackend create(BackendConfig config) {
    if (probe == null) {
      probe();
    }
    return probe.backend().orElseThrow(() -> new BackendUnavailableException(BackendUnavailableException.UNAVAILABLE, probe.reason()));
  }
}
