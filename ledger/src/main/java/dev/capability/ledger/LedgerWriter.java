package dev.capability.ledger;

import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.store.EvidenceStore;

/**
 * An {@link EvidenceStore} that takes records of every kind, and says where each landed. {@link
 * SqliteLedger} is one; {@link RedactingEvidenceStore} wraps one.
 */
public interface LedgerWriter extends EvidenceStore {

  /** Appends one record and returns once it is durably committed (see {@link Durability}). */
  Appended append(LedgerRecord record);

  /** Records an execution or denial: its attestation, and nothing else of the result. */
  @Override
  default void record(ExecutionResult result) {
    append(LedgerRecord.execution(result));
  }
}
