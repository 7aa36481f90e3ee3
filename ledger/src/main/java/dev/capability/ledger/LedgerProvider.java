package dev.capability.ledger;

import dev.capability.kernel.api.store.EvidenceStore;
import dev.capability.kernel.api.store.EvidenceStoreProvider;
import java.nio.file.Path;

/** The {@code sqlite} evidence store: {@link SqliteLedger#forRepository(Path)}. */
public final class LedgerProvider implements EvidenceStoreProvider {
  /** The id hosts select this store by. */
  public static final String ID = "sqlite";

  /** Found by {@link java.util.ServiceLoader}. */
  public LedgerProvider() {}

  @Override
  public String id() {
    return ID;
  }

  @Override
  public EvidenceStore open(Path repository) {
    return SqliteLedger.forRepository(repository);
  }
}
