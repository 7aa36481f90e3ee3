package dev.capability.ledger.internal;

import dev.capability.ledger.Durability;
import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Signs checkpoints of one ledger and appends them to its checkpoint file, after making sure the
 * records they cover cannot be lost any more.
 */
final class CheckpointWriter {
  private final Path db;
  private final Durability durability;
  private final LedgerKey key;
  private final String ledgerId;
  private final CheckpointLog log;
  private final Clock clock;

  CheckpointWriter(Path db, Durability durability, LedgerKey key, String ledgerId, CheckpointLog log, Clock clock) {
    this.db = db;
    this.durability = durability;
    this.key = key;
    this.ledgerId = ledgerId;
    this.log = log;
    this.clock = clock;
  }

  /** Forces the committed state to disk, then signs and appends a checkpoint of record {@code sequence} with {@code hash}. */
  void write(long sequence, String hash) {
    if (durability == Durability.NORMAL) {
      // Under synchronous=NORMAL the last commits may sit in the OS cache; a checkpoint must
      // never cover a record a power loss could take back. fsync of any descriptor of a file
      // flushes that file, whichever connection wrote it.
      try {
        SafeFiles.forceIfExists(db.resolveSibling(db.getFileName() + "-wal"));
        SafeFiles.forceIfExists(db);
      } catch (IOException e) {
        throw new LedgerException(LedgerCodes.LEDGER_IO_ERROR, "cannot force " + db + " to disk before a checkpoint: " + e.getMessage(), e);
      }
    }
    log.append(Checkpoint.sign(key, ledgerId, sequence, hash, Timestamps.format(clock.instant())));
  }
}
