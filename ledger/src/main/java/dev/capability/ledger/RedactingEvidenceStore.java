package dev.capability.ledger;

import java.util.Objects;

/**
 * A decorator that applies a {@link Redaction} to every record before the store it wraps sees
 * it, so redacted values are never canonicalized, hashed or stored.
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

  /** Closes the wrapped store. */
  @Override
  public void close() {
    delegate.close();
  }
}
