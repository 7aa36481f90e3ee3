package dev.capability.ledger.internal;

import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import dev.capability.ledger.LedgerRecord;
import dev.capability.ledger.RecordKind;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A record made ready outside the writer's lock: its canonical body, and the references the
 * writer must find before it appends it (an approval's or receipt's plan, by fingerprint and,
 * when it names one, by plan id; a receipt's or phase record's executions; a phase record's work
 * plan revision), or, for a work plan revision, the place it must take ({@code newRevision}: not
 * taken yet, and revision 1 or the successor of a recorded one); for an assumption, its id
 * ({@code newAssumption}: not taken yet); for a correction record, the assumption it corrects and
 * its executions.
 */
public record PreparedRecord(
    RecordKind kind,
    String body,
    byte[] bodyBytes,
    String planReference,
    String planIdReference,
    List<Long> executionReferences,
    WorkPlanRevision newRevision,
    WorkPlanRevision revisionReference,
    String newAssumption,
    String assumptionReference) {

  /** A revision of a work plan, as the writer looks it up. */
  public record WorkPlanRevision(String workPlanId, int revision) {}

  public PreparedRecord {
    executionReferences = List.copyOf(executionReferences);
  }

  public static PreparedRecord of(LedgerRecord record) {
    String canonical;
    try {
      canonical = CanonicalJson.serialize(record.body());
    } catch (IllegalArgumentException e) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "the " + record.kind().id() + " record has no canonical JSON form: " + e.getMessage(), e);
    }
    boolean aboutAPlan = record.kind() == RecordKind.APPROVAL || record.kind() == RecordKind.RECEIPT;
    String plan = aboutAPlan ? (String) record.body().get("fingerprint") : null;
    String planId = aboutAPlan ? planId(record) : null;
    List<Long> executions = new ArrayList<>();
    if (record.kind() == RecordKind.RECEIPT) {
      Long first = executionSequence(record.body().get("executionSequence"), "a receipt's executionSequence");
      if (first != null) {
        executions.add(first);
      }
      Object all = record.body().get("executionSequences");
      if (all != null) {
        if (!(all instanceof List<?> list)) {
          throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "a receipt's executionSequences must be an array of sequence numbers, was " + all);
        }
        for (Object value : list) {
          Long sequence = executionSequence(value, "a receipt's executionSequences");
          if (sequence == null) {
            throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "a receipt's executionSequences must not hold null");
          }
          executions.add(sequence);
        }
      }
    }
    WorkPlanRevision newRevision = null;
    WorkPlanRevision revisionReference = null;
    if (record.kind() == RecordKind.WORK_PLAN) {
      newRevision = new WorkPlanRevision((String) record.body().get("workPlanId"), ((Number) record.body().get("revision")).intValue());
    }
    if (record.kind() == RecordKind.PHASE) {
      revisionReference = new WorkPlanRevision((String) record.body().get("workPlanId"),
          ((Number) record.body().get("planRevision")).intValue());
      for (Object value : (List<?>) record.body().get("executionSequences")) {
        Long sequence = executionSequence(value, "a phase record's executionSequences");
        if (sequence == null) {
          throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "a phase record's executionSequences must not hold null");
        }
        executions.add(sequence);
      }
    }
    String newAssumption = record.kind() == RecordKind.ASSUMPTION ? (String) record.body().get("assumptionId") : null;
    String assumptionReference = null;
    if (record.kind() == RecordKind.CORRECTION) {
      assumptionReference = (String) record.body().get("assumptionId");
      for (Object value : (List<?>) record.body().get("executionSequences")) {
        Long sequence = executionSequence(value, "a correction record's executionSequences");
        if (sequence == null) {
          throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "a correction record's executionSequences must not hold null");
        }
        executions.add(sequence);
      }
    }
    return new PreparedRecord(record.kind(), canonical, canonical.getBytes(StandardCharsets.UTF_8), plan, planId, executions,
        newRevision, revisionReference, newAssumption, assumptionReference);
  }

  private static String planId(LedgerRecord record) {
    Object value = record.body().get("planId");
    if (value == null) {
      return null;
    }
    if (!(value instanceof String s) || s.isEmpty()) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "an " + record.kind().id() + "'s planId must be a non-empty string, was " + value);
    }
    return s;
  }

  private static Long executionSequence(Object value, String what) {
    if (value == null) {
      return null;
    }
    if ((value instanceof Integer || value instanceof Long) && ((Number) value).longValue() >= 1) {
      return ((Number) value).longValue();
    }
    if (value instanceof BigInteger b && b.signum() > 0 && b.bitLength() < 63) {
      return b.longValue();
    }
    throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, what + " holds " + value + ", which is not a sequence number (an integer from 1)");
  }
}
