package dev.capability.ledger.internal;

import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import dev.capability.ledger.LedgerRecord;
import dev.capability.ledger.RecordKind;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * A record made ready outside the writer's lock: its canonical body, and the references the
 * writer must find before it appends it (an approval's or receipt's plan, a receipt's execution).
 */
public record PreparedRecord(RecordKind kind, String body, byte[] bodyBytes, String planReference, Long executionReference) {

  public static PreparedRecord of(LedgerRecord record) {
    String canonical;
    try {
      canonical = CanonicalJson.serialize(record.body());
    } catch (IllegalArgumentException e) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "the " + record.kind().id() + " record has no canonical JSON form: " + e.getMessage(), e);
    }
    String plan = record.kind() == RecordKind.APPROVAL || record.kind() == RecordKind.RECEIPT ? (String) record.body().get("fingerprint") : null;
    Long execution = record.kind() == RecordKind.RECEIPT ? executionSequence(record.body().get("executionSequence")) : null;
    return new PreparedRecord(record.kind(), canonical, canonical.getBytes(StandardCharsets.UTF_8), plan, execution);
  }

  private static Long executionSequence(Object value) {
    if (value == null) {
      return null;
    }
    if ((value instanceof Integer || value instanceof Long) && ((Number) value).longValue() >= 1) {
      return ((Number) value).longValue();
    }
    if (value instanceof BigInteger b && b.signum() > 0 && b.bitLength() < 63) {
      return b.longValue();
    }
    throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "a receipt's executionSequence must be a sequence number (an integer from 1) or null, was " + value);
  }
}
