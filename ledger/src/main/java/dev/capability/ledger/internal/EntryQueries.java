package dev.capability.ledger.internal;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.capability.ledger.EntrySummary;
import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerEntry;
import dev.capability.ledger.LedgerException;
import dev.capability.ledger.LedgerQuery;
import dev.capability.ledger.RecordKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@code list} and {@code show}: reads through the generated columns, never through anything the chain does not cover. */
public final class EntryQueries {
  private static final String LIST = """
      SELECT seq, kind, recorded_at, status, exit_code, executable, backend, policy_hash, argv, fingerprint,
          coordinates, sha256, decision_code, work_plan_id, plan_revision, phase_id, content_hash FROM (
        SELECT e.seq, e.kind, e.recorded_at,
          CASE e.kind
            WHEN 'execution' THEN x.status
            WHEN 'decision' THEN CASE d.allowed WHEN 1 THEN 'ALLOWED' WHEN 0 THEN 'DENIED' END
            WHEN 'approval' THEN CASE a.approved WHEN 1 THEN 'APPROVED' WHEN 0 THEN 'REFUSED' END
            WHEN 'receipt' THEN r.status
            WHEN 'acquisition' THEN CASE q.accepted WHEN 1 THEN 'ACQUIRED' WHEN 0 THEN 'REFUSED' END
            WHEN 'phase' THEN ph.event
            WHEN 'correction' THEN cr.event
            WHEN 'evaluation' THEN CASE ev.all_passed WHEN 1 THEN 'PASSED' WHEN 0 THEN 'FAILED' END
          END AS status,
          x.exit_code AS exit_code,
          COALESCE(x.executable, d.executable) AS executable,
          COALESCE(x.backend, d.backend) AS backend,
          COALESCE(x.policy_hash, d.policy_hash) AS policy_hash,
          COALESCE(x.argv, d.argv) AS argv,
          COALESCE(p.fingerprint, a.fingerprint, r.fingerprint) AS fingerprint,
          q.coordinates AS coordinates,
          q.sha256 AS sha256,
          q.code AS decision_code,
          COALESCE(w.work_plan_id, ph.work_plan_id) AS work_plan_id,
          COALESCE(w.revision, ph.plan_revision) AS plan_revision,
          ph.phase_id AS phase_id,
          COALESCE(k.contract_hash, w.revision_hash) AS content_hash
        FROM entries e
          LEFT JOIN executions x ON e.kind = 'execution' AND x.seq = e.seq
          LEFT JOIN decisions d ON e.kind = 'decision' AND d.seq = e.seq
          LEFT JOIN plans p ON e.kind = 'plan' AND p.seq = e.seq
          LEFT JOIN approvals a ON e.kind = 'approval' AND a.seq = e.seq
          LEFT JOIN receipts r ON e.kind = 'receipt' AND r.seq = e.seq
          LEFT JOIN acquisitions q ON e.kind = 'acquisition' AND q.seq = e.seq
          LEFT JOIN contracts k ON e.kind = 'contract' AND k.seq = e.seq
          LEFT JOIN work_plans w ON e.kind = 'work_plan' AND w.seq = e.seq
          LEFT JOIN phases ph ON e.kind = 'phase' AND ph.seq = e.seq
          LEFT JOIN corrections cr ON e.kind = 'correction' AND cr.seq = e.seq
          LEFT JOIN evaluations ev ON e.kind = 'evaluation' AND ev.seq = e.seq
        WHERE (?1 IS NULL OR e.recorded_at >= ?1) AND (?2 IS NULL OR e.kind = ?2)
      )
      WHERE (?3 IS NULL OR status = ?3)
      ORDER BY seq DESC
      LIMIT ?4""";

  private final Path db;

  public EntryQueries(Path db) {
    this.db = db;
  }

  public List<EntrySummary> list(Connection c, LedgerQuery query) {
    try (PreparedStatement s = c.prepareStatement(LIST)) {
      setOrNull(s, 1, query.since().map(Timestamps::formatBound).orElse(null));
      setOrNull(s, 2, query.kind().map(RecordKind::id).orElse(null));
      setOrNull(s, 3, query.status().orElse(null));
      s.setInt(4, query.limit());
      List<EntrySummary> out = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.add(new EntrySummary(rs.getLong(1), kind(rs.getString(2), rs.getLong(1)), rs.getString(3), rs.getString(4),
              integer(rs.getObject(5)), rs.getString(6), rs.getString(7),
              rs.getString(8), argv(rs.getString(9), rs.getLong(1)), rs.getString(10), rs.getString(11), rs.getString(12),
              rs.getString(13), rs.getString(14), integer(rs.getObject(15)), rs.getString(16), rs.getString(17)));
        }
      }
      return out;
    } catch (SQLException e) {
      throw SqliteErrors.translate(e, db, "listing");
    }
  }

  public Optional<LedgerEntry> show(Connection c, long sequence) {
    try (PreparedStatement s = c.prepareStatement(ChainRows.ONE)) {
      s.setLong(1, sequence);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        String kind = rs.getString(2);
        byte[] body = rs.getBytes(6);
        if (body == null) {
          throw new LedgerException(LedgerCodes.LEDGER_CORRUPT, "record " + sequence + " of " + db + " has no body in its table");
        }
        String prevHash = rs.getString(4);
        String hash = rs.getString(5);
        boolean matches = ChainHash.hash(ChainHash.newDigest(), prevHash, sequence, kind, rs.getString(3), body).equals(hash);
        return Optional.of(new LedgerEntry(sequence, kind(kind, sequence), rs.getString(3), prevHash, hash, matches,
            JsonValues.immutableObject(Json.object(new String(body, StandardCharsets.UTF_8), "the body of record " + sequence),
                "the body of record " + sequence)));
      }
    } catch (SQLException e) {
      throw SqliteErrors.translate(e, db, "reading");
    }
  }

  private RecordKind kind(String id, long seq) {
    try {
      return RecordKind.fromId(id);
    } catch (IllegalArgumentException e) {
      throw new LedgerException(LedgerCodes.LEDGER_CORRUPT, "record " + seq + " of " + db + " has the unknown kind '" + id + "'", e);
    }
  }

  private static Integer integer(Object value) {
    return value instanceof Number n ? Integer.valueOf(n.intValue()) : null;
  }

  private static void setOrNull(PreparedStatement s, int index, String value) throws SQLException {
    if (value == null) {
      s.setNull(index, Types.VARCHAR);
    } else {
      s.setString(index, value);
    }
  }

  private List<String> argv(String json, long seq) {
    if (json == null) {
      return null;
    }
    try {
      return Json.MAPPER.readValue(json, new TypeReference<List<String>>() {});
    } catch (IOException e) {
      throw new LedgerException(LedgerCodes.LEDGER_CORRUPT, "the argv of record " + seq + " of " + db + " is not a list of strings", e);
    }
  }
}
