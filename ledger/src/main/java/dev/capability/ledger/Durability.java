package dev.capability.ledger;

/**
 * How far a committed record is guaranteed to survive. The ledger always runs SQLite in WAL
 * mode; this chooses its {@code synchronous} setting. See {@code docs/ledger.md}.
 */
public enum Durability {
  /**
   * {@code synchronous=NORMAL}: a committed record survives the crash or {@code kill -9} of any
   * process; after a power loss or operating-system crash the most recent commits may be rolled
   * back, but the database is never corrupted. Before writing a checkpoint the ledger forces the
   * database files to disk, so every record a checkpoint covers survives a power loss too.
   */
  NORMAL,
  /**
   * {@code synchronous=FULL}: every commit is forced to disk before it returns, so a committed
   * record survives a power loss as well; slower, by the cost of one {@code fsync} a commit.
   */
  FULL
}
