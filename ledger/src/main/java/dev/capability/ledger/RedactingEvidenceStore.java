package dev.capability.ledger;

import dev.capability.kernel.api.store.AssumptionRecord;
import dev.capability.kernel.api.store.ContractRecord;
import dev.capability.kernel.api.store.CorrectionRecord;
import dev.capability.kernel.api.store.PhaseRecord;
import dev.capability.kernel.api.store.Stored;
import dev.capability.kernel.api.store.WorkPlanRecord;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A decorator that applies a {@link Redaction} to every record before the store it wraps sees
 * it, so redacted values are never canonicalized, hashed or stored. That includes a work plan's
 * contract, revisions and phase records (a phase record's failure excerpts are secret-scanned by
 * the work-plan layer too; this is the second line). Reads pass through to the wrapped store and
 * so return the records as redacted.
 */
public final class RedactingEvidenceStore implements LedgerWriter {
  private final LedgerWriter delegate;
  private final Redaction redaction;

  public RedactingEvidenceStore(LedgerWriter delegate, Redaction redaction) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.redaction = Objects.requireNonNull(redaction, "redaction");
  }

  @Override
  public Appended append(LedgerRecord record) {
    return delegate.append(redaction.apply(record));
  }

  @Override
  public Optional<Stored<ContractRecord>> currentContract() {
    return delegate.currentContract();
  }

  @Override
  public List<Stored<WorkPlanRecord>> workPlanRevisions() {
    return delegate.workPlanRevisions();
  }

  @Override
  public List<Stored<PhaseRecord>> phaseRecords(String workPlanId) {
    return delegate.phaseRecords(workPlanId);
  }

  @Override
  public List<Stored<AssumptionRecord>> assumptions() {
    return delegate.assumptions();
  }

  @Override
  public List<Stored<CorrectionRecord>> corrections(String assumptionId) {
    return delegate.corrections(assumptionId);
  }

  /** Closes the wrapped store. */
  @Override
  public void close() {
    delegate.close();
  }
}
