package dev.capability.cli.internal;

import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.plugin.Plugins;
import java.util.List;
import java.util.Map;

/**
 * A backend provider for runs ({@code capability exec}). The kernel asks a provider whether it is
 * available before it creates the backend, and creating probes the host again for the settings it
 * is given; answering the first question from the {@link BackendProbeCache} saves one of the two
 * probes (for {@code bwrap}, its probe sandboxes) without trusting the cache for anything that is
 * enforced: the backend is always created by the real provider, whose own live probe decides what
 * it advertises and how it launches. An entry that says unavailable, or none for the backend's
 * present identity, is probed live (and kept), so a run is never refused on a cached answer.
 */
final class LaunchingBackendProvider implements BackendProvider {
  private final BackendProvider real;
  private final BackendProbeCache cache;
  private final Map<String, String> environment;

  private LaunchingBackendProvider(BackendProvider real, BackendProbeCache cache, Map<String, String> environment) {
    this.real = real;
    this.cache = cache;
    this.environment = environment;
  }

  /** {@code real}, its availability answered from {@code cache} when it can be. */
  static LaunchingBackendProvider of(BackendProvider real, BackendProbeCache cache, Map<String, String> environment) {
    return new LaunchingBackendProvider(real, cache, environment);
  }

  /** One such provider for each backend provider on the class path of {@code loader}. */
  static List<BackendProvider> forEachProvider(ClassLoader loader, BackendProbeCache cache, Map<String, String> environment) {
    return Plugins.load(BackendProvider.class, BackendProvider::id, loader).values().stream()
        .<BackendProvider>map(real -> of(real, cache, environment))
        .toList();
  }

  @Override
  public String id() {
    return real.id();
  }

  @Override
  public Availability probe() {
    BackendProbe probe = CachedBackendProvider.cached(real, cache, environment)
        .filter(BackendProbe::available)
        .orElseGet(() -> CachedBackendProvider.probeLive(real, cache, environment, BackendConfig.defaults()));
    return CachedBackendProvider.availability(probe);
  }

  /** The real provider's backend, created (and probed live) with {@code config}. */
  @Override
  public ExecutionBackend create(BackendConfig config) {
    return real.create(config);
  }
}
