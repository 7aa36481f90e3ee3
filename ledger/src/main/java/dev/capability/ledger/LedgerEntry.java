package dev.capability.ledger;

import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One stored record, as {@code ledger show} prints it.
 *
 * @param sequence its sequence number
 * @param kind its kind
 * @param recordedAt when the ledger recorded it
 * @param prevHash the hash of the record before it (for record 1, the ledger's genesis hash)
 * @param hash its hash as stored
 * @param hashMatches whether {@code hash} is the SHA-256 of {@code prevHash} and this record's
 *     canonical bytes; this checks the record alone, {@code verify} checks the chain
 * @param body the record's body
 */
public record LedgerEntry(
    long sequence, RecordKind kind, String recordedAt, String prevHash, String hash, boolean hashMatches, Map<String, @Nullable Object> body) {
  public LedgerEntry {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(recordedAt, "recordedAt");
    Objects.requireNonNull(prevHash, "prevHash");
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(body, "body");
  }
}
