package dev.capability.ledger.internal;

import dev.capability.kernel.api.store.AssumptionRecord;
import dev.capability.kernel.api.store.ContractRecord;
import dev.capability.kernel.api.store.CorrectionRecord;
import dev.capability.kernel.api.store.CorrectionVerificationRecord;
import dev.capability.kernel.api.store.InvalidationRecord;
import dev.capability.kernel.api.store.OutcomeRecord;
import dev.capability.kernel.api.store.ScopeExpansionRecord;
import dev.capability.kernel.api.store.PhaseRecord;
import dev.capability.kernel.api.store.Stored;
import dev.capability.kernel.api.store.WorkPlanRecord;
import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import dev.capability.ledger.RecordKind;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a work plan's records back: the contract, the plan revisions and the phase records, each
 * with its sequence and recording time. Every row read is checked against its chain entry (the
 * entry exists, is of the row's kind, and its hash is the hash of the row's body), and a row that
 * fails, or whose body is not the record it must be, is refused with {@code LEDGER_CORRUPT}: the
 * work-plan layer decides on what it reads, so it never reads a changed record as if it were true.
 */
public final class WorkPlanQueries {
  private static final String ROWS = """
      SELECT t.seq, e.seq, e.kind, e.recorded_at, e.prev_hash, e.hash, t.body
        FROM %s t LEFT JOIN entries e ON e.seq = t.seq""";
  private static final String CURRENT_CONTRACT = ROWS.formatted("contracts") + " ORDER BY t.seq DESC LIMIT 1";
  private static final String WORK_PLANS = ROWS.formatted("work_plans") + " ORDER BY t.seq";
  private static final String PHASES = ROWS.formatted("phases") + " WHERE t.work_plan_id = ? ORDER BY t.seq";
  private static final String ASSUMPTIONS = ROWS.formatted("assumptions") + " ORDER BY t.seq";
  private static final String CORRECTIONS = ROWS.formatted("corrections") + " WHERE t.assumption_id = ? ORDER BY t.seq";

  private final Path db;
  private final MessageDigest digest = ChainHash.newDigest();

  public WorkPlanQueries(Path db) {
    this.db = db;
  }

  /** The contract recorded last, if any. */
  public Optional<Stored<ContractRecord>> currentContract(Connection c) {
    List<Stored<ContractRecord>> found = read(c, CURRENT_CONTRACT, null, RecordKind.CONTRACT, (seq, body) ->
        new ContractRecord(string(body, "contractHash", seq), object(body, "contract", seq)));
    return found.stream().findFirst();
  }

  /** Every work plan revision, in the order recorded. */
  public List<Stored<WorkPlanRecord>> workPlanRevisions(Connection c) {
    return read(c, WORK_PLANS, null, RecordKind.WORK_PLAN, (seq, body) -> new WorkPlanRecord(string(body, "workPlanId", seq),
        revision(body, "revision", seq), string(body, "revisionHash", seq), object(body, "document", seq)));
  }

  /** Every phase record of {@code workPlanId}, in the order recorded. */
  public List<Stored<PhaseRecord>> phaseRecords(Connection c, String workPlanId) {
    return read(c, PHASES, workPlanId, RecordKind.PHASE, (seq, body) -> new PhaseRecord(string(body, "workPlanId", seq),
        revision(body, "planRevision", seq), string(body, "phaseId", seq), string(body, "event", seq),
        sequences(body, seq), object(body, "body", seq)));
  }

  /** Every assumption, in the order recorded. */
  public List<Stored<AssumptionRecord>> assumptions(Connection c) {
    return read(c, ASSUMPTIONS, null, RecordKind.ASSUMPTION, (seq, body) -> new AssumptionRecord(string(body, "assumptionId", seq),
        string(body, "workPlanId", seq), string(body, "phaseId", seq), object(body, "assumption", seq)));
  }

  /** Every correction record of {@code assumptionId}, in the order recorded. */
  public List<Stored<CorrectionRecord>> corrections(Connection c, String assumptionId) {
    return read(c, CORRECTIONS, assumptionId, RecordKind.CORRECTION, this::correction);
  }

  private CorrectionRecord correction(long seq, Map<String, Object> body) {
    String assumptionId = string(body, "assumptionId", seq);
    String event = string(body, "event", seq);
    List<Long> executions = sequences(body, seq);
    CorrectionRecord record = switch (event) {
      case "INVALIDATED" -> new InvalidationRecord(assumptionId, string(body, "rootCause", seq), strings(body, "radius", seq),
          object(body, "details", seq));
      case "SCOPE_EXPANDED" -> new ScopeExpansionRecord(assumptionId, strings(body, "paths", seq), string(body, "justification", seq));
      case "VERIFIED", "VERIFICATION_FAILED" -> new CorrectionVerificationRecord(assumptionId, body.get("passed") == Boolean.TRUE,
          executions, object(body, "details", seq));
      case "RESOLVED", "ABANDONED" -> new OutcomeRecord(assumptionId, event.equals("RESOLVED"),
          body.containsKey("verificationSequence") ? Optional.of(sequence(body.get("verificationSequence"), seq)) : Optional.empty(),
          string(body, "reason", seq));
      default -> throw corrupt("record " + seq + " has the correction event '" + event + "', which is no event of a correction");
    };
    if (!record.event().equals(event)) {
      throw corrupt("record " + seq + " says the event '" + event + "' and holds a " + record.event() + " correction");
    }
    return record;
  }

  private List<String> strings(Map<String, Object> body, String name, long seq) {
    if (!(body.get(name) instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
      throw corrupt("record " + seq + " has no member '" + name + "' that is an array of strings");
    }
    return list.stream().map(String.class::cast).toList();
  }

  private interface RecordOf<T> {
    T from(long seq, Map<String, Object> body);
  }

  private <T> List<Stored<T>> read(Connection c, String sql, String parameter, RecordKind kind, RecordOf<T> recordOf) {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      if (parameter != null) {
        s.setString(1, parameter);
      }
      List<Stored<T>> out = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.add(stored(rs, kind, recordOf));
        }
      }
      return out;
    } catch (SQLException e) {
      throw SqliteErrors.translate(e, db, "reading");
    }
  }

  private <T> Stored<T> stored(ResultSet rs, RecordKind kind, RecordOf<T> recordOf) throws SQLException {
    long seq = rs.getLong(1);
    if (rs.getObject(2) == null || !kind.id().equals(rs.getString(3))) {
      throw corrupt("the " + kind.table() + " table holds a row " + seq + " that is no " + kind.id() + " record of the chain");
    }
    String recordedAt = rs.getString(4);
    byte[] bodyBytes = rs.getBytes(7);
    if (!ChainHash.hash(digest, rs.getString(5), seq, kind.id(), recordedAt, bodyBytes).equals(rs.getString(6))) {
      throw corrupt("record " + seq + " (" + kind.id() + ") does not match its hash: it was changed");
    }
    Map<String, Object> body = JsonValues.immutableObject(
        Json.object(new String(bodyBytes, StandardCharsets.UTF_8), "the body of record " + seq + " of " + db), "the body of record " + seq);
    T record;
    try {
      record = recordOf.from(seq, body);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw corrupt("record " + seq + " (" + kind.id() + ") is not a valid " + kind.id() + " record: " + e.getMessage());
    }
    Instant at;
    try {
      at = Instant.parse(recordedAt);
    } catch (DateTimeParseException e) {
      throw corrupt("record " + seq + " has the recording time '" + recordedAt + "', which is not an instant");
    }
    return new Stored<>(seq, at, record);
  }

  private String string(Map<String, Object> body, String name, long seq) {
    if (!(body.get(name) instanceof String s)) {
      throw corrupt("record " + seq + " has no string member '" + name + "'");
    }
    return s;
  }

  private Map<String, Object> object(Map<String, Object> body, String name, long seq) {
    if (!(body.get(name) instanceof Map<?, ?> map)) {
      throw corrupt("record " + seq + " has no object member '" + name + "'");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> object = (Map<String, Object>) map;
    return object;
  }

  private int revision(Map<String, Object> body, String name, long seq) {
    Object value = body.get(name);
    if (!(value instanceof Integer i)) {
      throw corrupt("record " + seq + " has no member '" + name + "' that is a revision number, was " + value);
    }
    return i;
  }

  private List<Long> sequences(Map<String, Object> body, long seq) {
    if (!(body.get("executionSequences") instanceof List<?> list)) {
      throw corrupt("record " + seq + " has no array member 'executionSequences'");
    }
    List<Long> out = new ArrayList<>(list.size());
    for (Object value : list) {
      out.add(sequence(value, seq));
    }
    return out;
  }

  private long sequence(Object value, long seq) {
    if (!(value instanceof Integer || value instanceof Long || value instanceof BigInteger b && b.bitLength() < 63)) {
      throw corrupt("record " + seq + " holds " + value + " where a sequence number belongs");
    }
    return ((Number) value).longValue();
  }

  private LedgerException corrupt(String message) {
    return new LedgerException(LedgerCodes.LEDGER_CORRUPT, message + " (reading " + db + "; run capability ledger verify)");
  }
}
