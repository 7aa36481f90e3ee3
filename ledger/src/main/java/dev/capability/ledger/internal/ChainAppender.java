package dev.capability.ledger.internal;

import dev.capability.ledger.Appended;
import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import dev.capability.ledger.RecordKind;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The SQL of appending: one transaction that chains a batch of records onto the head. Not thread-safe; the writer's lock guards it. */
final class ChainAppender {
  private final Path db;
  private final String genesis;
  private final Clock clock;
  private final MessageDigest digest = ChainHash.newDigest();
  private final PreparedStatement begin;
  private final PreparedStatement commit;
  private final PreparedStatement rollback;
  private final PreparedStatement head;
  private final PreparedStatement insertEntry;
  private final Map<RecordKind, PreparedStatement> insertBody = new EnumMap<>(RecordKind.class);
  private final PreparedStatement planExists;
  private final PreparedStatement planIdExists;
  private final PreparedStatement executionExists;
  private final PreparedStatement revisionExists;
  private final PreparedStatement assumptionExists;

  /** The head of the chain. */
  record Head(long seq, String hash) {}

  ChainAppender(Connection connection, Path db, String genesis, Clock clock) throws SQLException {
    this.db = db;
    this.genesis = genesis;
    this.clock = clock;
    this.begin = connection.prepareStatement("BEGIN IMMEDIATE");
    this.commit = connection.prepareStatement("COMMIT");
    this.rollback = connection.prepareStatement("ROLLBACK");
    this.head = connection.prepareStatement("SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1");
    this.insertEntry = connection.prepareStatement(
        "INSERT INTO entries (seq, kind, recorded_at, prev_hash, hash) VALUES (?, ?, ?, ?, ?)");
    for (RecordKind kind : RecordKind.values()) {
      insertBody.put(kind, connection.prepareStatement(
          "INSERT INTO " + kind.table() + " (seq, " + Schema.bodyColumn(kind.table()) + ") VALUES (?, ?)"));
    }
    this.planExists = connection.prepareStatement("SELECT 1 FROM plans WHERE fingerprint = ?");
    this.planIdExists = connection.prepareStatement("SELECT 1 FROM plans WHERE plan_id = ? AND fingerprint = ?");
    this.executionExists = connection.prepareStatement("SELECT 1 FROM entries WHERE seq = ? AND kind = 'execution'");
    this.revisionExists = connection.prepareStatement("SELECT 1 FROM work_plans WHERE work_plan_id = ? AND revision = ?");
    this.assumptionExists = connection.prepareStatement("SELECT 1 FROM assumptions WHERE assumption_id = ?");
  }

  /** A record broke a constraint in a transaction shared with others; everything was rolled back. */
  static final class ConstraintInBatch extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ConstraintInBatch() {
      super(null, null, false, false);
    }
  }

  /**
   * Appends {@code batch} in one {@code BEGIN IMMEDIATE} transaction, chained to the head read
   * inside it, and completes every record; returns how many landed. A record the ledger's own
   * checks refuse fails alone, before any insert. A constraint broken by one record of several
   * rolls everything back and throws {@link ConstraintInBatch}, for the caller to retry them one
   * by one.
   */
  int commit(List<PendingAppend> batch) throws SQLException {
    begin.execute();
    try {
      Head current = readHead();
      for (PendingAppend p : batch) {
        p.staged = null;
        p.refusal = null;
        try {
          // Refusals by the ledger's own checks come before any insert, so they leave nothing to undo.
          checkReferences(p.record);
        } catch (LedgerException refused) {
          p.refusal = refused;
          continue;
        }
        long seq = current.seq() + 1;
        String recordedAt = Timestamps.format(clock.instant());
        String kind = p.record.kind().id();
        String hash = ChainHash.hash(digest, current.hash(), seq, kind, recordedAt, p.record.bodyBytes());
        try {
          insertEntry.setLong(1, seq);
          insertEntry.setString(2, kind);
          insertEntry.setString(3, recordedAt);
          insertEntry.setString(4, current.hash());
          insertEntry.setString(5, hash);
          insertEntry.executeUpdate();
          PreparedStatement body = insertBody.get(p.record.kind());
          body.setLong(1, seq);
          body.setString(2, p.record.body());
          body.executeUpdate();
        } catch (SQLException e) {
          if (!SqliteErrors.isConstraint(e)) {
            throw e;
          }
          if (batch.size() > 1) {
            throw new ConstraintInBatch();
          }
          rollback.execute();
          p.fail(SqliteErrors.translate(e, db, "appending to"));
          return 0;
        }
        p.staged = new Appended(seq, p.record.kind(), recordedAt, hash);
        current = new Head(seq, hash);
      }
      commit.execute();
    } catch (SQLException | RuntimeException e) {
      rollbackQuietly();
      throw e;
    }
    int landed = 0;
    for (PendingAppend p : batch) {
      if (p.staged != null) {
        p.succeed(p.staged);
        landed++;
      } else {
        p.fail(p.refusal);
      }
    }
    return landed;
  }

  private void checkReferences(PreparedRecord record) throws SQLException {
    if (record.planReference() != null && !exists(planExists, record.planReference())) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "the " + record.kind().id() + " refers to the plan with fingerprint '"
          + record.planReference() + "', which the ledger does not hold");
    }
    if (record.planIdReference() != null) {
      planIdExists.setString(1, record.planIdReference());
      planIdExists.setString(2, record.planReference());
      try (ResultSet rs = planIdExists.executeQuery()) {
        if (!rs.next()) {
          throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "the " + record.kind().id() + " refers to the plan '" + record.planIdReference()
              + "' with fingerprint '" + record.planReference() + "', which the ledger does not hold");
        }
      }
    }
    for (long execution : record.executionReferences()) {
      executionExists.setLong(1, execution);
      try (ResultSet rs = executionExists.executeQuery()) {
        if (!rs.next()) {
          throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "the " + record.kind().id() + " refers to execution " + execution
              + ", which is not an execution record of the ledger");
        }
      }
    }
    PreparedRecord.WorkPlanRevision revision = record.newRevision();
    if (revision != null) {
      if (exists(revision)) {
        throw new LedgerException(LedgerCodes.LEDGER_RECORD_CONFLICT, "the ledger already holds revision " + revision.revision()
            + " of the work plan '" + revision.workPlanId() + "'; a revision is never replaced");
      }
      if (revision.revision() > 1 && !exists(new PreparedRecord.WorkPlanRevision(revision.workPlanId(), revision.revision() - 1))) {
        throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "revision " + revision.revision() + " of the work plan '"
            + revision.workPlanId() + "' must follow revision " + (revision.revision() - 1) + ", which the ledger does not hold");
      }
    }
    PreparedRecord.WorkPlanRevision reference = record.revisionReference();
    if (reference != null && !exists(reference)) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "the " + record.kind().id() + " refers to revision " + reference.revision()
          + " of the work plan '" + reference.workPlanId() + "', which the ledger does not hold");
    }
    if (record.newAssumption() != null && exists(assumptionExists, record.newAssumption())) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_CONFLICT, "the ledger already holds an assumption '" + record.newAssumption()
          + "'; an assumption is never replaced");
    }
    if (record.assumptionReference() != null && !exists(assumptionExists, record.assumptionReference())) {
      throw new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "the correction refers to the assumption '" + record.assumptionReference()
          + "', which the ledger does not hold");
    }
  }

  private boolean exists(PreparedRecord.WorkPlanRevision revision) throws SQLException {
    revisionExists.setString(1, revision.workPlanId());
    revisionExists.setInt(2, revision.revision());
    try (ResultSet rs = revisionExists.executeQuery()) {
      return rs.next();
    }
  }

  private static boolean exists(PreparedStatement query, String value) throws SQLException {
    query.setString(1, value);
    try (ResultSet rs = query.executeQuery()) {
      return rs.next();
    }
  }

  private void rollbackQuietly() {
    try {
      rollback.execute();
    } catch (SQLException ignored) {
      // No transaction was open: SQLite had already rolled it back (for example after SQLITE_FULL).
    }
  }

  /** The last record's sequence and hash, or 0 and the genesis hash. */
  Head readHead() throws SQLException {
    try (ResultSet rs = head.executeQuery()) {
      return rs.next() ? new Head(rs.getLong(1), rs.getString(2)) : new Head(0, genesis);
    }
  }
}
