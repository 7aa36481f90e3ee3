package dev.capability.ledger;

import java.time.Instant;
import java.util.Optional;

/**
 * Which records {@code list} returns, newest first.
 *
 * @param since only records recorded at or after this instant
 * @param status only records with this status (see {@link EntrySummary#status()})
 * @param kind only records of this kind
 * @param limit at most this many, from 1 to 100,000
 */
public record LedgerQuery(Optional<Instant> since, Optional<String> status, Optional<RecordKind> kind, int limit) {
  /** The most records one query returns. */
  public static final int MAX_LIMIT = 100_000;

  public LedgerQuery {
    since = since == null ? Optional.empty() : since;
    status = status == null ? Optional.empty() : status;
    kind = kind == null ? Optional.empty() : kind;
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", was " + limit);
    }
  }

  /** The newest {@code limit} records of every kind. */
  public static LedgerQuery latest(int limit) {
    return new LedgerQuery(Optional.empty(), Optional.empty(), Optional.empty(), limit);
  }

  public LedgerQuery since(Instant instant) {
    return new LedgerQuery(Optional.of(instant), status, kind, limit);
  }

  public LedgerQuery status(String value) {
    return new LedgerQuery(since, Optional.of(value), kind, limit);
  }

  public LedgerQuery kind(RecordKind value) {
    return new LedgerQuery(since, status, Optional.of(value), limit);
  }
}
