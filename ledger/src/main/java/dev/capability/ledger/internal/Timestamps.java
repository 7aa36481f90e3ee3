package dev.capability.ledger.internal;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * Times as the ledger stores them: UTC with exactly six fraction digits, so that text order is
 * time order and range queries can use the index.
 */
public final class Timestamps {
  private static final DateTimeFormatter FORMAT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  /** 9999-12-31T23:59:59Z: later years need a fifth digit and would break the text order. */
  private static final long LAST_SECOND = 253_402_300_799L;

  private Timestamps() {}

  /** The lower bound of a time range: {@code instant}, moved into the years the ledger records. */
  public static String formatBound(Instant instant) {
    if (instant.getEpochSecond() < 0) {
      return format(Instant.EPOCH);
    }
    return instant.getEpochSecond() > LAST_SECOND ? format(Instant.ofEpochSecond(LAST_SECOND, 999_999_000)) : format(instant);
  }

  /** {@code instant} truncated to microseconds, for example {@code 2026-11-30T01:02:03.000450Z}. */
  public static String format(Instant instant) {
    if (instant.getEpochSecond() < 0 || instant.getEpochSecond() > LAST_SECOND) {
      throw new IllegalArgumentException("the ledger records times from 1970 to 9999, not " + instant);
    }
    return FORMAT.format(instant.truncatedTo(ChronoUnit.MICROS));
  }
}
