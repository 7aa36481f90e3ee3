package dev.capability.kernel.api.store;

import java.nio.file.Path;

/**
 * A named source of {@link EvidenceStore}s, found with {@link java.util.ServiceLoader} by {@link
 * EvidenceStores#open} when a host chooses a store by id instead of wiring one in by hand.
 */
public interface EvidenceStoreProvider {

  /** The store's id, for example {@code sqlite}. */
  String id();

  /** Opens the store that belongs to {@code repository} (for the SQLite ledger, {@code <repository>/.capability/state.db}). */
  EvidenceStore open(Path repository);
}
