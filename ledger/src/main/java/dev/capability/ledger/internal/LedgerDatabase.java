package dev.capability.ledger.internal;

import dev.capability.ledger.Durability;
import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/**
 * Opens ledger databases, and decides before writing a byte whether a file is a ledger at all:
 * a file that is not SQLite, a SQLite database of someone else, or a ledger of a newer schema is
 * refused and left exactly as it was.
 */
public final class LedgerDatabase {
  private static final byte[] SQLITE_MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

  private LedgerDatabase() {}

  /** What a file is. */
  public enum State {
    /** Absent, empty, or an empty SQLite database: a new ledger may be created in it. */
    NEW,
    /** A ledger this code can read and write (perhaps after forward migrations). */
    LEDGER
  }

  /** The verdict on a file and, for a ledger, its schema version. */
  public record Inspection(State state, int version) {}

  /** Classifies {@code db} without changing it; throws for anything that is not ours or not usable. */
  public static Inspection inspect(Path db, Duration busyTimeout) {
    requireSupportedPath(db);
    byte[] header = new byte[SQLITE_MAGIC.length];
    int read;
    try (InputStream in = Files.newInputStream(db)) {
      read = in.readNBytes(header, 0, header.length);
    } catch (NoSuchFileException e) {
      return new Inspection(State.NEW, 0);
    } catch (IOException e) {
      throw new LedgerException(LedgerCodes.LEDGER_IO_ERROR, "cannot read " + db + ": " + e.getMessage(), e);
    }
    if (read == 0) {
      return new Inspection(State.NEW, 0);
    }
    if (read < header.length || !Arrays.equals(header, SQLITE_MAGIC)) {
      throw new LedgerException(LedgerCodes.LEDGER_NOT_SQLITE, db + " is not a SQLite database, so not a ledger; it was left untouched");
    }
    try (Connection c = connect(db, readOnlyConfig(busyTimeout))) {
      return classify(c, db);
    } catch (SQLException e) {
      throw SqliteErrors.translate(e, db, "inspecting");
    }
  }

  /**
   * Classifies the database behind {@code c}: inside a write transaction, this is the check a
   * writer repeats before it migrates, so two processes creating one ledger agree.
   */
  static Inspection classify(Connection c, Path db) throws SQLException {
    int applicationId = intQuery(c, "PRAGMA application_id");
    int version = intQuery(c, "PRAGMA user_version");
    int objects = intQuery(c, "SELECT count(*) FROM sqlite_schema");
    if (applicationId == 0 && version == 0 && objects == 0) {
      return new Inspection(State.NEW, 0);
    }
    if (applicationId != Schema.APPLICATION_ID) {
      throw new LedgerException(LedgerCodes.LEDGER_FOREIGN_DATABASE, db + " is a SQLite database of another application (application_id "
          + applicationId + "), not a ledger; it was left untouched");
    }
    if (version > Schema.currentVersion()) {
      throw new LedgerException(LedgerCodes.LEDGER_SCHEMA_TOO_NEW, db + " has ledger schema version " + version
          + ", newer than the " + Schema.currentVersion() + " this version understands; use a newer capability kernel. It was left untouched");
    }
    if (version < 1) {
      throw new LedgerException(LedgerCodes.LEDGER_CORRUPT, db + " carries the ledger's application id but no schema version; it was left untouched");
    }
    return new Inspection(State.LEDGER, version);
  }

  /** The writer connection: WAL, the chosen durability, foreign keys on, the busy timeout. */
  static Connection openWriter(Path db, Durability durability, Duration busyTimeout) throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setOpenMode(SQLiteOpenMode.READWRITE);
    config.setOpenMode(SQLiteOpenMode.CREATE);
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(durability == Durability.FULL ? SQLiteConfig.SynchronousMode.FULL : SQLiteConfig.SynchronousMode.NORMAL);
    config.enforceForeignKeys(true);
    config.setBusyTimeout(millis(busyTimeout));
    // The writer chooses its sequence numbers itself; asking for generated keys costs a query per insert.
    config.setGetGeneratedKeys(false);
    Connection c = connect(db, config);
    try {
      // SQLite opens a file it may not write read-only without saying so; writing the journal mode tells.
      String mode = stringQuery(c, "PRAGMA journal_mode");
      if (!"wal".equalsIgnoreCase(mode)) {
        throw new LedgerException(LedgerCodes.LEDGER_IO_ERROR, "cannot switch " + db + " to WAL mode (it is in " + mode + " mode)");
      }
      return c;
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /** A read-only connection with foreign keys on, for queries and verification. */
  public static Connection openReader(Path db, Duration busyTimeout) {
    try {
      return connect(db, readOnlyConfig(busyTimeout));
    } catch (SQLException e) {
      throw SqliteErrors.translate(e, db, "opening");
    }
  }

  private static SQLiteConfig readOnlyConfig(Duration busyTimeout) {
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(true);
    config.enforceForeignKeys(true);
    config.setBusyTimeout(millis(busyTimeout));
    return config;
  }

  private static Connection connect(Path db, SQLiteConfig config) throws SQLException {
    return config.createConnection("jdbc:sqlite:" + db);
  }

  /** Refuses paths the JDBC URL would misread. */
  public static void requireSupportedPath(Path db) {
    String text = db.toString();
    if (!db.isAbsolute() || text.contains("?") || text.contains("#")) {
      throw new LedgerException(LedgerCodes.LEDGER_PATH_UNSUPPORTED, "the ledger path must be absolute and free of '?' and '#': " + db);
    }
  }

  private static int millis(Duration d) {
    return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
  }

  static int intQuery(Connection c, String sql) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql); ResultSet rs = s.executeQuery()) {
      return rs.next() ? rs.getInt(1) : 0;
    }
  }

  static String stringQuery(Connection c, String sql) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql); ResultSet rs = s.executeQuery()) {
      return rs.next() ? rs.getString(1) : null;
    }
  }
}
