package dev.capability.ledger.internal;

import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import java.nio.file.Path;
import java.sql.SQLException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** Turns SQLite's errors into {@link LedgerException}s that name the file and what to do. */
public final class SqliteErrors {
  private SqliteErrors() {}

  /** True for the errors a writer waits out: another connection holds the lock. */
  public static boolean isBusy(SQLException e) {
    String name = resultName(e);
    return name.startsWith("SQLITE_BUSY") || name.startsWith("SQLITE_LOCKED");
  }

  /** True when the statement broke a constraint: the record, not the storage, is at fault. */
  public static boolean isConstraint(SQLException e) {
    return resultName(e).startsWith("SQLITE_CONSTRAINT");
  }

  /** True when SQLite found the file damaged. */
  public static boolean isCorrupt(SQLException e) {
    String name = resultName(e);
    return name.startsWith("SQLITE_CORRUPT") || name.startsWith("SQLITE_NOTADB");
  }

  /** The ledger exception for {@code e}, raised while {@code doing} on the ledger at {@code db}. */
  public static LedgerException translate(SQLException e, Path db, String doing) {
    String name = resultName(e);
    String where = " (" + doing + " " + db + ")";
    if (name.startsWith("SQLITE_NOTADB")) {
      return new LedgerException(LedgerCodes.LEDGER_NOT_SQLITE, "the file is not a SQLite database" + where, e);
    }
    if (name.startsWith("SQLITE_CORRUPT")) {
      return new LedgerException(LedgerCodes.LEDGER_CORRUPT,
          "the database file is corrupted: " + e.getMessage() + where + "; the ledger was not changed, keep a copy of the file", e);
    }
    if (name.startsWith("SQLITE_READONLY")) {
      return new LedgerException(LedgerCodes.LEDGER_READ_ONLY, "the database or its directory cannot be written" + where, e);
    }
    if (name.startsWith("SQLITE_FULL")) {
      return new LedgerException(LedgerCodes.LEDGER_STORAGE_FULL, "the disk is full; the record was not stored" + where, e);
    }
    if (name.startsWith("SQLITE_BUSY") || name.startsWith("SQLITE_LOCKED")) {
      return new LedgerException(LedgerCodes.LEDGER_BUSY, "other writers held the ledger for longer than the busy timeout" + where, e);
    }
    if (name.startsWith("SQLITE_CANTOPEN") || name.startsWith("SQLITE_PERM") || name.startsWith("SQLITE_AUTH")) {
      return new LedgerException(LedgerCodes.LEDGER_IO_ERROR, "the database cannot be opened: " + e.getMessage() + where, e);
    }
    if (name.startsWith("SQLITE_IOERR_WRITE") || name.startsWith("SQLITE_IOERR_FSYNC") || name.startsWith("SQLITE_IOERR_TRUNCATE")) {
      return new LedgerException(LedgerCodes.LEDGER_IO_ERROR, "a write was refused (the disk may be full, a file size limit reached,"
          + " or the device failing); nothing partial was stored" + where, e);
    }
    if (name.startsWith("SQLITE_IOERR")) {
      return new LedgerException(LedgerCodes.LEDGER_IO_ERROR, "the operating system refused a read or write: " + e.getMessage() + where, e);
    }
    if (name.startsWith("SQLITE_CONSTRAINT")) {
      return new LedgerException(LedgerCodes.LEDGER_RECORD_INVALID, "the record breaks a constraint: " + e.getMessage() + where, e);
    }
    return new LedgerException(LedgerCodes.LEDGER_IO_ERROR, "SQLite failed: " + e.getMessage() + where, e);
  }

  private static String resultName(SQLException e) {
    if (e instanceof SQLiteException s) {
      SQLiteErrorCode code = s.getResultCode();
      if (code != null) {
        return code.name();
      }
    }
    // Without an extended code, SQLite's primary code is the vendor code.
    SQLiteErrorCode code = SQLiteErrorCode.getErrorCode(e.getErrorCode());
    return code == null ? "" : code.name();
  }
}
