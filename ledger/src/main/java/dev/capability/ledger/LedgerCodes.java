package dev.capability.ledger;

/**
 * The stable codes of {@link LedgerException#code()}. {@code docs/ledger.md} ("Bad input and
 * faults") says when each is raised.
 */
public final class LedgerCodes {
  private LedgerCodes() {}

  /** A reader was pointed at a missing or empty file; readers never create one. */
  public static final String LEDGER_NOT_FOUND = "LEDGER_NOT_FOUND";
  /** The file is not a SQLite database. */
  public static final String LEDGER_NOT_SQLITE = "LEDGER_NOT_SQLITE";
  /** A SQLite database of another application. */
  public static final String LEDGER_FOREIGN_DATABASE = "LEDGER_FOREIGN_DATABASE";
  /** A ledger of a schema newer than this version understands. */
  public static final String LEDGER_SCHEMA_TOO_NEW = "LEDGER_SCHEMA_TOO_NEW";
  /** A reader met an older schema: open it once for writing to migrate. */
  public static final String LEDGER_SCHEMA_OLD = "LEDGER_SCHEMA_OLD";
  /** SQLite reports the file damaged, or the ledger's identity rows are missing. */
  public static final String LEDGER_CORRUPT = "LEDGER_CORRUPT";
  /** The file or its directory cannot be written. */
  public static final String LEDGER_READ_ONLY = "LEDGER_READ_ONLY";
  /** The disk is full; the record was not stored. */
  public static final String LEDGER_STORAGE_FULL = "LEDGER_STORAGE_FULL";
  /** The operating system refused a read or write, or the directory does not exist. */
  public static final String LEDGER_IO_ERROR = "LEDGER_IO_ERROR";
  /** Other writers held the ledger for longer than the busy timeout. */
  public static final String LEDGER_BUSY = "LEDGER_BUSY";
  /** The path is relative, contains {@code ?} or {@code #}, or the database or {@code .capability} is a symbolic link. */
  public static final String LEDGER_PATH_UNSUPPORTED = "LEDGER_PATH_UNSUPPORTED";
  /** The signing key is missing where it must exist. */
  public static final String LEDGER_KEY_MISSING = "LEDGER_KEY_MISSING";
  /** A key file is not a usable key, or is not private to its owner. */
  public static final String LEDGER_KEY_INVALID = "LEDGER_KEY_INVALID";
  /** The private and public key files do not belong together, or not to this ledger. */
  public static final String LEDGER_KEY_MISMATCH = "LEDGER_KEY_MISMATCH";
  /** The checkpoint file cannot be read or appended. */
  public static final String LEDGER_CHECKPOINT_IO = "LEDGER_CHECKPOINT_IO";
  /** A record lacks a member its table indexes, has no canonical JSON form, or refers to nothing. */
  public static final String LEDGER_RECORD_INVALID = "LEDGER_RECORD_INVALID";
  /** A record would take a place another record holds: a work plan revision number already recorded for that work plan. */
  public static final String LEDGER_RECORD_CONFLICT = "LEDGER_RECORD_CONFLICT";
  /** A signed export was asked of a ledger that does not verify. */
  public static final String LEDGER_NOT_INTACT = "LEDGER_NOT_INTACT";
  /** The ledger was closed. */
  public static final String LEDGER_CLOSED = "LEDGER_CLOSED";
  /** {@code capability ledger show N}: the ledger holds no record N. */
  public static final String LEDGER_NO_SUCH_RECORD = "LEDGER_NO_SUCH_RECORD";

  /**
   * {@link SqlitePlaybook}: {@code ~/.capability} or {@code playbook.db} (or a journal beside it) is a
   * symbolic link, not a directory or regular file, a group- or world-writable directory, or a file
   * others may read; or the home directory is not an absolute path free of {@code ?} and {@code #}.
   */
  public static final String PLAYBOOK_LOCATION_UNSAFE = "PLAYBOOK_LOCATION_UNSAFE";
  /** {@code playbook.db} is not a SQLite database, is another application's, or has a newer schema; it was left untouched. */
  public static final String PLAYBOOK_NOT_PLAYBOOK = "PLAYBOOK_NOT_PLAYBOOK";
  /** The playbook could not be created, read or written. */
  public static final String PLAYBOOK_IO_ERROR = "PLAYBOOK_IO_ERROR";
  /** The playbook was closed. */
  public static final String PLAYBOOK_CLOSED = "PLAYBOOK_CLOSED";
}
