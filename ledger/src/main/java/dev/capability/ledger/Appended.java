package dev.capability.ledger;

import java.util.Objects;

/**
 * Where a record landed: committed, with its place in the chain.
 *
 * @param sequence its sequence number, from 1, with no gaps
 * @param kind its kind
 * @param recordedAt when the ledger recorded it (UTC, microseconds, fixed width)
 * @param hash lower-case hex SHA-256 of the previous record's hash and this record's canonical bytes
 */
public record Appended(long sequence, RecordKind kind, String recordedAt, String hash) {
  public Appended {
    if (sequence < 1) {
      throw new IllegalArgumentException("sequence starts at 1, was " + sequence);
    }
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(recordedAt, "recordedAt");
    Objects.requireNonNull(hash, "hash");
  }
}
