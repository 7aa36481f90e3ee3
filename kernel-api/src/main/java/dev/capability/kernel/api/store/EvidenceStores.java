package dev.capability.kernel.api.store;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.plugin.Plugins;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Opens an evidence store by id from the {@link EvidenceStoreProvider}s on a class path, found
 * through the one plugin loader ({@link Plugins}), for hosts that choose a store by name (a setting,
 * a flag) rather than wiring one in by hand.
 *
 * <pre>{@code
 * try (EvidenceStore store = EvidenceStores.open("sqlite", repo, getClass().getClassLoader())) {
 *   CommandKernel kernel = CommandKernel.builder(policy).evidenceStore(store).build();
 * }
 * }</pre>
 */
public final class EvidenceStores {
  /** No evidence store provider on the class path has the id asked for; the message names the ones that are. */
  public static final String UNKNOWN = "STORE_UNKNOWN";

  private EvidenceStores() {}

  /**
   * Opens the store {@code id} that belongs to {@code repository}; the caller closes it.
   *
   * @throws CapabilityException {@link #UNKNOWN} when no provider has the id; {@link
   *     Plugins#DUPLICATE} naming both classes when two providers claim one id
   */
  public static EvidenceStore open(String id, Path repository, ClassLoader loader) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(repository, "repository");
    Map<String, EvidenceStoreProvider> providers = Plugins.load(EvidenceStoreProvider.class, EvidenceStoreProvider::id, loader);
    EvidenceStoreProvider provider = providers.get(id);
    if (provider == null) {
      throw new CapabilityException(
          UNKNOWN,
          "no evidence store '" + id + "' is on the class path (found: " + providers.keySet().stream().sorted().toList()
              + "); add the jar that provides it, for example capability-ledger for 'sqlite'");
    }
    return provider.open(repository);
  }
}
