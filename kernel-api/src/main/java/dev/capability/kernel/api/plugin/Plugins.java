package dev.capability.kernel.api.plugin;

import dev.capability.kernel.api.CapabilityException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.function.Function;

/**
 * The one place that finds plugins: the providers of a service visible to a class loader, by id.
 * Backends ({@link dev.capability.kernel.api.backend.BackendProvider}), capability executors and
 * evidence stores ({@link dev.capability.kernel.api.store.EvidenceStoreProvider}) are all found
 * here, so they fail alike: two providers that claim one id are an error naming both classes, never
 * a silent choice of whichever the class path lists first.
 *
 * <pre>{@code
 * Map<String, EvidenceStoreProvider> stores =
 *     Plugins.load(EvidenceStoreProvider.class, EvidenceStoreProvider::id, getClass().getClassLoader());
 * }</pre>
 *
 * <p>On the module path, ServiceLoader serves a named module only the services it declares it
 * uses, and the module that calls ServiceLoader here is kernel-api, which cannot name the services
 * of the modules built on it (a capability executor, a Sigstore verifier, or an embedder's own).
 * So {@link #load} first declares the use of {@code service} for this module at run time ({@link
 * Module#addUses}); a module still finds providers only among the modules resolved at start-up,
 * so the module that owns a service declares {@code uses} for it too, which lets the module system
 * resolve the providers on the module path.
 */
public final class Plugins {
  /** Two providers of one service claim the same id; the message names both classes. */
  public static final String DUPLICATE = "PLUGIN_DUPLICATE";
  /**
   * A provider named in a {@code META-INF/services} file cannot be loaded or instantiated, or
   * reports no id; the message names the service and the cause.
   */
  public static final String INVALID = "PLUGIN_INVALID";

  private Plugins() {}

  /**
   * Every provider of {@code service} that {@code loader} can see, by the id {@code id} reports,
   * in discovery order.
   *
   * @throws CapabilityException {@link #DUPLICATE} when two providers claim one id, {@link
   *     #INVALID} when a listed provider cannot be instantiated or has no id
   */
  public static <P> Map<String, P> load(Class<P> service, Function<? super P, String> id, ClassLoader loader) {
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(loader, "loader");
    List<P> found = new ArrayList<>();
    // Without this, ServiceLoader refuses (in a named module) any service kernel-api's
    // module-info does not list; on the class path it does nothing.
    Plugins.class.getModule().addUses(service);
    try {
      ServiceLoader.load(service, loader).forEach(found::add);
    } catch (ServiceConfigurationError e) {
      throw new CapabilityException(
          INVALID, "a " + service.getName() + " provider on the class path cannot be loaded: " + e.getMessage(), e);
    }
    return byId(service, id, found);
  }

  /**
   * {@code providers} by the id {@code id} reports, in the order given.
   *
   * @throws CapabilityException {@link #DUPLICATE} when two providers claim one id, naming both
   *     classes; {@link #INVALID} when a provider reports no id
   */
  public static <P> Map<String, P> byId(Class<P> service, Function<? super P, String> id, List<? extends P> providers) {
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(id, "id");
    Map<String, P> byId = new LinkedHashMap<>();
    for (P provider : providers) {
      String providerId = id.apply(provider);
      if (providerId == null || providerId.isEmpty()) {
        throw new CapabilityException(
            INVALID, "the " + service.getName() + " provider " + provider.getClass().getName() + " reports no id");
      }
      P previous = byId.putIfAbsent(providerId, provider);
      if (previous != null) {
        throw new CapabilityException(
            DUPLICATE,
            "two " + service.getName() + " providers claim the id '" + providerId + "': "
                + previous.getClass().getName() + " and " + provider.getClass().getName()
                + "; remove one of their jars from the class path");
      }
    }
    return Collections.unmodifiableMap(byId);
  }
}
