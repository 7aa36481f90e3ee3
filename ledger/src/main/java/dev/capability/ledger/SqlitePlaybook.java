package dev.capability.ledger;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.store.PlaybookEntry;
import dev.capability.kernel.api.store.PlaybookPattern;
import dev.capability.kernel.api.store.PlaybookStore;
import dev.capability.ledger.internal.PlaybookFiles;
import dev.capability.ledger.internal.SqliteErrors;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The operator's cross-project playbook in its own SQLite file, {@code <home>/.capability/playbook.db}
 * (not a ledger, and not hash-chained: it holds counts of anti-patterns, not evidence). See
 * {@code docs/playbook.md}.
 *
 * <p>Off by default: the file exists only after {@link #enable}, and {@link #disable} deletes it.
 * {@link #openIfEnabled} never creates anything. The directory is created with mode 0700 and the
 * file with mode 0600; a directory or file that is a symbolic link, a directory its group or
 * others may write, or a file others may read is refused with {@link LedgerCodes#PLAYBOOK_LOCATION_UNSAFE},
 * and SQLite opens the file with {@code SQLITE_OPEN_NOFOLLOW} and never creates it.
 *
 * <p>Thread-safe: one connection, used by one caller at a time. Processes share the file through
 * SQLite's locks.
 *
 * <pre>{@code
 * Optional<SqlitePlaybook> playbook = SqlitePlaybook.openIfEnabled(Path.of(System.getProperty("user.home")));
 * }</pre>
 */
public final class SqlitePlaybook implements PlaybookStore, AutoCloseable {
  /** {@code PRAGMA application_id}: "CPBK", so no other database, not even a ledger, is taken for a playbook. */
  static final int APPLICATION_ID = 0x4350424b;
  static final int SCHEMA_VERSION = 1;
  private static final int SQLITE_OPEN_READWRITE = 0x00000002;
  private static final int SQLITE_OPEN_NOFOLLOW = 0x01000000;
  private static final int BUSY_TIMEOUT_MILLIS = 5_000;

  private final Path file;
  private final Connection connection;
  private boolean closed;

  private SqlitePlaybook(Path file, Connection connection) {
    this.file = file;
    this.connection = connection;
  }

  /** Where the playbook of the user whose home directory is {@code home} lives (whether or not it exists). */
  public static Path databaseFile(Path home) {
    return PlaybookFiles.under(Objects.requireNonNull(home, "home")).database();
  }

  /**
   * Whether the operator enabled the playbook under {@code home}: its database exists. Creates
   * nothing.
   *
   * @throws LedgerException {@code PLAYBOOK_LOCATION_UNSAFE} when a database is there in an unsafe location
   */
  public static boolean enabled(Path home) {
    return PlaybookFiles.under(Objects.requireNonNull(home, "home")).exists();
  }

  /**
   * Enables the playbook under {@code home}: creates {@code .capability} (0700) and
   * {@code playbook.db} (0600) where missing, and opens it. Enabling an enabled playbook opens it.
   *
   * @throws LedgerException {@code PLAYBOOK_LOCATION_UNSAFE}, {@code PLAYBOOK_NOT_PLAYBOOK}, {@code PLAYBOOK_IO_ERROR}
   */
  public static SqlitePlaybook enable(Path home) {
    PlaybookFiles files = PlaybookFiles.under(Objects.requireNonNull(home, "home"));
    files.create();
    return open(files);
  }

  /**
   * The playbook under {@code home} when the operator enabled it; empty, and nothing created,
   * when not.
   *
   * @throws LedgerException {@code PLAYBOOK_LOCATION_UNSAFE}, {@code PLAYBOOK_NOT_PLAYBOOK}, {@code PLAYBOOK_IO_ERROR}
   */
  public static Optional<SqlitePlaybook> openIfEnabled(Path home) {
    PlaybookFiles files = PlaybookFiles.under(Objects.requireNonNull(home, "home"));
    return files.exists() ? Optional.of(open(files)) : Optional.empty();
  }

  /**
   * Disables the playbook under {@code home}: deletes its database and journals, so nothing it
   * learned remains. Disabling a disabled playbook does nothing.
   *
   * @return whether it was enabled
   * @throws LedgerException {@code PLAYBOOK_LOCATION_UNSAFE} (a linked or shared directory is left alone), {@code PLAYBOOK_IO_ERROR}
   */
  public static boolean disable(Path home) {
    return PlaybookFiles.under(Objects.requireNonNull(home, "home")).delete();
  }

  private static SqlitePlaybook open(PlaybookFiles files) {
    Path db = files.database();
    Properties properties = new Properties();
    // Only through properties does the driver take flags its enum lacks: never create, never follow a link.
    properties.setProperty("open_mode", Integer.toString(SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW));
    SQLiteConfig config = new SQLiteConfig(properties);
    config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
    config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
    Connection connection;
    try {
      connection = config.createConnection("jdbc:sqlite:" + db);
    } catch (SQLException e) {
      throw translate(e, db, "opening");
    }
    try {
      initialise(connection, db);
      // Checked again once open: a journal left by a crash is a file SQLite would have read.
      files.requirePrivateFiles();
      return new SqlitePlaybook(db, connection);
    } catch (SQLException e) {
      close(connection);
      throw translate(e, db, "opening");
    } catch (RuntimeException e) {
      close(connection);
      throw e;
    }
  }

  private static void initialise(Connection c, Path db) throws SQLException {
    // One transaction, and none held afterwards: the driver begins the next at once while auto-commit is off.
    c.setAutoCommit(false);
    try {
      int applicationId = intQuery(c, "PRAGMA application_id");
      int version = intQuery(c, "PRAGMA user_version");
      int objects = intQuery(c, "SELECT count(*) FROM sqlite_schema");
      if (applicationId == 0 && version == 0 && objects == 0) {
        try (Statement s = c.createStatement()) {
          s.executeUpdate("CREATE TABLE pattern ("
              + " root_cause TEXT NOT NULL CHECK (length(root_cause) BETWEEN 1 AND " + PlaybookEntry.MAX_TOKEN_LENGTH + "),"
              + " assumption_kind TEXT NOT NULL CHECK (length(assumption_kind) BETWEEN 1 AND " + PlaybookEntry.MAX_TOKEN_LENGTH + "),"
              + " languages TEXT NOT NULL,"
              + " roles TEXT NOT NULL,"
              + " occurrences INTEGER NOT NULL CHECK (occurrences >= 1),"
              + " PRIMARY KEY (root_cause, assumption_kind, languages, roles)) WITHOUT ROWID");
          s.executeUpdate("PRAGMA application_id = " + APPLICATION_ID);
          s.executeUpdate("PRAGMA user_version = " + SCHEMA_VERSION);
        }
      } else if (applicationId != APPLICATION_ID) {
        throw new LedgerException(LedgerCodes.PLAYBOOK_NOT_PLAYBOOK,
            db + " is a SQLite database of another application (application_id " + applicationId + "), not a playbook; it was left untouched");
      } else if (version != SCHEMA_VERSION) {
        throw new LedgerException(LedgerCodes.PLAYBOOK_NOT_PLAYBOOK,
            db + " has playbook schema version " + version + ", not the " + SCHEMA_VERSION + " this version understands; it was left untouched");
      }
      c.commit();
    } catch (SQLException | RuntimeException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(true);
    }
  }

  @Override
  public synchronized long record(PlaybookEntry entry) {
    Objects.requireNonNull(entry, "entry");
    requireOpen();
    try {
      connection.setAutoCommit(false);
      try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO pattern (root_cause, assumption_kind, languages, roles, occurrences)"
          + " VALUES (?, ?, ?, ?, 1) ON CONFLICT (root_cause, assumption_kind, languages, roles) DO UPDATE SET occurrences = occurrences + 1");
          PreparedStatement count = connection.prepareStatement(
              "SELECT occurrences FROM pattern WHERE root_cause = ? AND assumption_kind = ? AND languages = ? AND roles = ?")) {
        bind(upsert, entry);
        upsert.executeUpdate();
        bind(count, entry);
        long occurrences;
        try (ResultSet rs = count.executeQuery()) {
          rs.next();
          occurrences = rs.getLong(1);
        }
        connection.commit();
        return occurrences;
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      } finally {
        connection.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw translate(e, file, "recording in");
    }
  }

  @Override
  public synchronized List<PlaybookPattern> concerning(Set<String> languages, Set<String> roles) {
    Objects.requireNonNull(languages, "languages");
    Objects.requireNonNull(roles, "roles");
    requireOpen();
    List<PlaybookPattern> found = new ArrayList<>();
    try {
      try (PreparedStatement s = connection.prepareStatement("SELECT root_cause, assumption_kind, languages, roles, occurrences FROM pattern");
          ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          PlaybookPattern pattern = new PlaybookPattern(new PlaybookEntry(rs.getString(1), rs.getString(2), split(rs.getString(3)),
              split(rs.getString(4))), rs.getLong(5));
          if (pattern.entry().concerns(languages, roles)) {
            found.add(pattern);
          }
        }
      }
    } catch (SQLException e) {
      throw translate(e, file, "reading");
    } catch (CapabilityException e) {
      throw new LedgerException(LedgerCodes.PLAYBOOK_NOT_PLAYBOOK, file + " holds a row that is not a playbook entry: " + e.getMessage(), e);
    }
    found.sort(Comparator.comparingLong(PlaybookPattern::occurrences).reversed().thenComparing(p -> key(p.entry())));
    return List.copyOf(found);
  }

  /** The database file. */
  public Path databaseFile() {
    return file;
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      close(connection);
    }
  }

  private void requireOpen() {
    if (closed) {
      throw new LedgerException(LedgerCodes.PLAYBOOK_CLOSED, "the playbook " + file + " is closed");
    }
  }

  private static void bind(PreparedStatement s, PlaybookEntry entry) throws SQLException {
    s.setString(1, entry.rootCause());
    s.setString(2, entry.assumptionKind());
    s.setString(3, String.join(" ", entry.languages()));
    s.setString(4, String.join(" ", entry.roles()));
  }

  private static String key(PlaybookEntry entry) {
    return entry.rootCause() + "\n" + entry.assumptionKind() + "\n" + String.join(" ", entry.languages()) + "\n" + String.join(" ", entry.roles());
  }

  /** Tokens never hold a space, so the space-joined form splits back exactly. */
  private static Set<String> split(String joined) {
    return joined.isEmpty() ? Set.of() : new LinkedHashSet<>(Arrays.asList(joined.split(" ", -1)));
  }

  private static int intQuery(Connection c, String sql) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql); ResultSet rs = s.executeQuery()) {
      return rs.next() ? rs.getInt(1) : 0;
    }
  }

  private static LedgerException translate(SQLException e, Path db, String doing) {
    if (e instanceof SQLiteException sqlite && sqlite.getResultCode() == SQLiteErrorCode.SQLITE_CANTOPEN_SYMLINK) {
      // The file was checked before; a link put there since is refused by SQLite itself.
      return new LedgerException(LedgerCodes.PLAYBOOK_LOCATION_UNSAFE, db + " is a symbolic link; the playbook never follows one", e);
    }
    if (SqliteErrors.isCorrupt(e)) {
      return new LedgerException(LedgerCodes.PLAYBOOK_NOT_PLAYBOOK, db + " is not a SQLite database, or is damaged (" + doing + " it); it was left untouched", e);
    }
    return new LedgerException(LedgerCodes.PLAYBOOK_IO_ERROR, "the playbook failed while " + doing + " " + db + ": " + e.getMessage(), e);
  }

  private static void close(Connection c) {
    try {
      c.close();
    } catch (SQLException e) {
      // Nothing is pending: every write committed or rolled back before this.
    }
  }
}
