package dev.capability.kernel.core.internal.backend;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.plugin.Plugins;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Backends found through the one plugin loader, {@link Plugins}. */
public final class BackendDiscovery {
  private BackendDiscovery() {}

  /**
   * Every provider visible to {@code loader}, by id, in discovery order.
   *
   * @throws BackendUnavailableException with {@code BACKEND_DUPLICATE} when two providers share an
   *     id, naming both classes
   */
  public static Map<String, BackendProvider> discover(ClassLoader loader) {
    return asBackendFailure(() -> Plugins.load(BackendProvider.class, BackendProvider::id, loader));
  }

  /** Providers by id; two with one id is a startup error naming both classes. */
  public static Map<String, BackendProvider> byId(List<BackendProvider> providers) {
    return asBackendFailure(() -> Plugins.byId(BackendProvider.class, BackendProvider::id, providers));
  }

  // A duplicate backend keeps the code backends have always had, BACKEND_DUPLICATE, and the type
  // hosts catch for every backend that cannot be provided.
  private static Map<String, BackendProvider> asBackendFailure(Supplier<Map<String, BackendProvider>> discovery) {
    try {
      return discovery.get();
    } catch (CapabilityException e) {
      if (e.code().equals(Plugins.DUPLICATE)) {
        throw new BackendUnavailableException(BackendUnavailableException.DUPLICATE, e.getMessage(), e);
      }
      throw e;
    }
  }
}
