package dev.capability.kernel.core.internal.backend;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendProvider;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/** The one place that touches {@link ServiceLoader} for backends. */
public final class BackendDiscovery {
  private BackendDiscovery() {}

  /**
   * Every provider visible to {@code loader}, by id, in discovery order.
   *
   * @throws BackendUnavailableException with {@code BACKEND_DUPLICATE} when two providers share an id
   */
  public static Map<String, BackendProvider> discover(ClassLoader loader) {
    List<BackendProvider> found = new ArrayList<>();
    ServiceLoader.load(BackendProvider.class, loader).forEach(found::add);
    return byId(found);
  }

  /** Providers by id; two with one id is a startup error naming both classes. */
  public static Map<String, BackendProvider> byId(List<BackendProvider> providers) {
    Map<String, BackendProvider> byId = new LinkedHashMap<>();
    for (BackendProvider provider : providers) {
      BackendProvider previous = byId.putIfAbsent(provider.id(), provider);
      if (previous != null) {
        throw new BackendUnavailableException(
            BackendUnavailableException.DUPLICATE,
            "two backend providers claim the id '" + provider.id() + "': "
                + previous.getClass().getName() + " and " + provider.getClass().getName()
                + "; remove one of their jars from the class path");
      }
    }
    return byId;
  }
}
