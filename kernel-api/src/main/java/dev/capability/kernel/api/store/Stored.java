package dev.capability.kernel.api.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A record as a store holds it: where it landed and when.
 *
 * @param sequence its sequence number in the store, from 1
 * @param recordedAt when the store recorded it
 * @param record the record
 * @param <T> the record's type
 */
public record Stored<T>(long sequence, Instant recordedAt, T record) {
  public Stored {
    if (sequence < 1) {
      throw new IllegalArgumentException("sequence numbers start at 1, was " + sequence);
    }
    Objects.requireNonNull(recordedAt, "recordedAt");
    Objects.requireNonNull(record, "record");
  }
}
