package dev.capability.ledger.internal;

import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The ledger's identity from {@code ledger_meta}: its id (bound into the genesis hash) and the id
 * of the key its checkpoints are signed with.
 */
public record LedgerMeta(String ledgerId, String keyId) {

  /** Reads and checks the identity rows every ledger has. */
  public static LedgerMeta read(Connection c, Path db) {
    try {
      return readOrThrow(c, db);
    } catch (SQLException e) {
      throw SqliteErrors.translate(e, db, "reading");
    }
  }

  static LedgerMeta readOrThrow(Connection c, Path db) throws SQLException {
    Map<String, String> meta = new HashMap<>();
    try (PreparedStatement s = c.prepareStatement("SELECT name, value FROM ledger_meta"); ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        meta.put(rs.getString(1), rs.getString(2));
      }
    }
    if (!Schema.FORMAT.equals(meta.get("format")) || meta.get("ledger_id") == null || meta.get("key_id") == null) {
      throw new LedgerException(LedgerCodes.LEDGER_CORRUPT, db + " lacks the ledger's format, id or key id in ledger_meta; it was left untouched");
    }
    return new LedgerMeta(meta.get("ledger_id"), meta.get("key_id"));
  }
}
