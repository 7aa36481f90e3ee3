package dev.capability.ledger.internal;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

/**
 * Creates a ledger in a new database, or takes an older one forward, in one write transaction:
 * either the whole step lands or none of it. Never touches a stored record.
 */
final class Migrator {
  private Migrator() {}

  /** The ledger's identity as stored. */
  record Identity(String ledgerId, String keyId, boolean created) {}

  static Identity migrate(Connection c, Path db, String keyId, Instant now) throws SQLException {
    execute(c, "BEGIN IMMEDIATE");
    try {
      LedgerDatabase.Inspection inspection = LedgerDatabase.classify(c, db);
      boolean created = inspection.state() == LedgerDatabase.State.NEW;
      int from = created ? 0 : inspection.version();
      for (Schema.Migration step : Schema.migrations(from, Schema.currentVersion())) {
        for (String statement : step.statements()) {
          execute(c, statement);
        }
        // PRAGMAs take no parameters; the values are this class's integer constants.
        execute(c, "PRAGMA user_version = " + step.version());
      }
      if (created) {
        execute(c, "PRAGMA application_id = " + Schema.APPLICATION_ID);
        insertMeta(c, "format", Schema.FORMAT);
        insertMeta(c, "ledger_id", UUID.randomUUID().toString());
        insertMeta(c, "created_at", Timestamps.format(now));
        insertMeta(c, "key_id", keyId);
      }
      LedgerMeta meta = LedgerMeta.readOrThrow(c, db);
      execute(c, "COMMIT");
      return new Identity(meta.ledgerId(), meta.keyId(), created);
    } catch (SQLException | RuntimeException e) {
      rollbackQuietly(c);
      throw e;
    }
  }

  private static void insertMeta(Connection c, String name, String value) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("INSERT INTO ledger_meta (name, value) VALUES (?, ?)")) {
      s.setString(1, name);
      s.setString(2, value);
      s.executeUpdate();
    }
  }

  static void execute(Connection c, String sql) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.execute();
    }
  }

  static void rollbackQuietly(Connection c) {
    try {
      execute(c, "ROLLBACK");
    } catch (SQLException ignored) {
      // No transaction was open: SQLite had already rolled it back (for example after SQLITE_FULL).
    }
  }
}
