package dev.capability.ledger.internal;

import dev.capability.ledger.Appended;
import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import dev.capability.ledger.LedgerOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one writer of a ledger in this process: one connection, appends from any number of threads
 * grouped into shared transactions, each record chained to the head read inside the transaction
 * (so writers in other processes interleave safely), and signed checkpoints after commits.
 *
 * <p>Group commit: a thread queues its record and takes the write lock; whoever holds the lock
 * drains the queue and commits everything in it in one transaction. A record refused fails alone.
 */
public final class AppendLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AppendLog.class);
  private static final int MAX_BATCH = 256;

  private final Path db;
  private final LedgerOptions options;
  private final Connection connection;
  private final CheckpointWriter checkpointWriter;
  private final String genesis;
  private final ChainAppender appender;

  private final ReentrantLock writeLock = new ReentrantLock();
  private final ArrayDeque<PendingAppend> queue = new ArrayDeque<>();
  private final ReentrantLock checkpointLock = new ReentrantLock();
  private final ScheduledExecutorService scheduler;

  // Guarded by writeLock.
  private long uncheckpointed;
  private boolean closed;
  private ScheduledFuture<?> scheduledCheckpoint;

  private AppendLog(Path db, LedgerOptions options, Connection connection, LedgerKey key, Migrator.Identity identity) throws SQLException {
    this.db = db;
    this.options = options;
    this.connection = connection;
    this.checkpointWriter = new CheckpointWriter(db, options.durability(), key, identity.ledgerId(),
        new CheckpointLog(options.checkpointFile(db)), options.clock());
    this.genesis = ChainHash.genesis(identity.ledgerId());
    this.appender = new ChainAppender(connection, db, genesis, options.clock());
    this.scheduler = options.checkpointMaxDelay().isPresent()
        ? Executors.newSingleThreadScheduledExecutor(r -> {
          Thread t = new Thread(r, "capability-ledger-checkpoint");
          t.setDaemon(true);
          return t;
        })
        : null;
  }

  /**
   * Opens the writer of the ledger at {@code db}, creating the ledger (and its key) when the file
   * is new and migrating it forward when it is older. Refuses, untouched, a file that is not ours.
   */
  static AppendLog open(Path db, LedgerOptions options) {
    requireWritable(db);
    LedgerDatabase.Inspection inspection = LedgerDatabase.inspect(db, options.busyTimeout());
    Path keyFile = options.keyFile(db);
    LedgerKey key;
    if (inspection.state() == LedgerDatabase.State.NEW) {
      key = Files.exists(keyFile) ? LedgerKey.load(keyFile) : LedgerKey.createOrLoad(keyFile, options.publicKeyFile(db));
      try {
        SafeFiles.createPrivateFile(db);
      } catch (IOException e) {
        throw new LedgerException(LedgerCodes.LEDGER_IO_ERROR, "cannot create the ledger " + db + ": " + e.getMessage(), e);
      }
    } else {
      key = LedgerKey.load(keyFile);
    }
    key.writePublicKey(options.publicKeyFile(db));
    Connection connection = null;
    try {
      connection = LedgerDatabase.openWriter(db, options.durability(), options.busyTimeout());
      Migrator.Identity identity = Migrator.migrate(connection, db, key.publicKey().keyId(), options.clock().instant());
      if (!identity.keyId().equals(key.publicKey().keyId())) {
        throw new LedgerException(LedgerCodes.LEDGER_KEY_MISMATCH, "the ledger " + db + " was created with key " + identity.keyId()
            + ", but " + keyFile + " holds key " + key.publicKey().keyId());
      }
      AppendLog log = new AppendLog(db, options, connection, key, identity);
      if (identity.created()) {
        log.checkpointWriter.write(0, log.genesis);
      }
      return log;
    } catch (SQLException e) {
      closeQuietly(connection);
      throw SqliteErrors.translate(e, db, "opening");
    } catch (RuntimeException e) {
      closeQuietly(connection);
      throw e;
    }
  }

  /**
   * SQLite opens a file it cannot write without complaint and fails later; say so up front. The
   * directory must be writable too: SQLite creates the {@code -wal} and {@code -shm} files there.
   */
  private static void requireWritable(Path db) {
    Path dir = db.getParent();
    if (!Files.isWritable(dir) || Files.exists(db) && !Files.isWritable(db)) {
      throw new LedgerException(LedgerCodes.LEDGER_READ_ONLY, "the ledger " + db + " cannot be written: " + (Files.isWritable(dir)
          ? "the file is read-only" : "its directory " + dir + " is read-only (SQLite keeps its journal beside the file)")
          + "; nothing was changed");
    }
  }

  /** The database file. */
  public Path database() {
    return db;
  }

  /** Appends one record and returns once it is committed. */
  public Appended append(PreparedRecord record) {
    PendingAppend pending = new PendingAppend(record);
    synchronized (queue) {
      queue.add(pending);
    }
    int committed = 0;
    writeLock.lock();
    try {
      while (!pending.done) {
        if (closed) {
          failQueued(new LedgerException(LedgerCodes.LEDGER_CLOSED, "the ledger " + db + " is closed"));
          break;
        }
        List<PendingAppend> batch = new ArrayList<>();
        synchronized (queue) {
          while (!queue.isEmpty() && batch.size() < MAX_BATCH) {
            batch.add(queue.poll());
          }
        }
        committed += commit(batch);
      }
      uncheckpointed += committed;
      if (committed > 0) {
        scheduleCheckpoint();
      }
    } finally {
      writeLock.unlock();
    }
    if (committed > 0) {
      checkpointIfDue();
    }
    return pending.result();
  }

  private void failQueued(LedgerException failure) {
    synchronized (queue) {
      while (!queue.isEmpty()) {
        queue.poll().fail(failure);
      }
    }
  }

  /**
   * Commits a batch, retrying while other processes hold the database; returns how many records
   * landed. A record that breaks a constraint inside a shared transaction rolls the whole of it
   * back; the batch is then committed again one record per transaction, so that record fails alone.
   */
  private int commit(List<PendingAppend> batch) {
    try {
      return commitRetrying(batch);
    } catch (ChainAppender.ConstraintInBatch e) {
      int landed = 0;
      for (PendingAppend p : batch) {
        landed += commitRetrying(List.of(p));
      }
      return landed;
    }
  }

  private int commitRetrying(List<PendingAppend> batch) {
    long deadline = System.nanoTime() + options.busyTimeout().toNanos();
    long backoffMillis = 1;
    while (true) {
      try {
        return appender.commit(batch);
      } catch (SQLException e) {
        if (SqliteErrors.isBusy(e) && System.nanoTime() < deadline) {
          sleep(backoffMillis);
          backoffMillis = Math.min(backoffMillis * 2, 64);
          continue;
        }
        LedgerException failure = SqliteErrors.translate(e, db, "appending to");
        batch.forEach(p -> p.fail(failure));
        return 0;
      } catch (ChainAppender.ConstraintInBatch e) {
        throw e;
      } catch (RuntimeException e) {
        LedgerException failure = e instanceof LedgerException l ? l
            : new LedgerException(LedgerCodes.LEDGER_IO_ERROR, "appending to " + db + " failed: " + e, e);
        batch.forEach(p -> p.fail(failure));
        return 0;
      }
    }
  }

  /** Signs and appends a checkpoint of the current head now. */
  public void checkpoint() {
    checkpointLock.lock();
    try {
      ChainAppender.Head current;
      long covered;
      writeLock.lock();
      try {
        current = currentHead();
        covered = uncheckpointed;
      } finally {
        writeLock.unlock();
      }
      checkpointWriter.write(current.seq(), current.hash());
      writeLock.lock();
      try {
        uncheckpointed = Math.max(0, uncheckpointed - covered);
      } finally {
        writeLock.unlock();
      }
    } finally {
      checkpointLock.unlock();
    }
  }

  private ChainAppender.Head currentHead() {
    try {
      return appender.readHead();
    } catch (SQLException e) {
      throw SqliteErrors.translate(e, db, "reading the head of");
    }
  }

  private void checkpointIfDue() {
    boolean due;
    writeLock.lock();
    try {
      due = uncheckpointed >= options.checkpointEvery() && !closed;
    } finally {
      writeLock.unlock();
    }
    if (due && checkpointLock.tryLock()) {
      try {
        checkpoint();
      } catch (LedgerException e) {
        // The records are committed; the next checkpoint (at the latest on close) covers them.
        LOG.warn("could not write a checkpoint of {}: {}", db, e.getMessage());
      } finally {
        checkpointLock.unlock();
      }
    }
  }

  /** Called under the write lock after a commit: makes sure a checkpoint follows within the maximum delay. */
  private void scheduleCheckpoint() {
    if (scheduler == null || closed || (scheduledCheckpoint != null && !scheduledCheckpoint.isDone())) {
      return;
    }
    Duration delay = options.checkpointMaxDelay().orElseThrow();
    scheduledCheckpoint = scheduler.schedule(() -> {
      try {
        boolean pending;
        writeLock.lock();
        try {
          pending = uncheckpointed > 0 && !closed;
        } finally {
          writeLock.unlock();
        }
        if (pending) {
          checkpoint();
        }
      } catch (LedgerException e) {
        LOG.warn("could not write a checkpoint of {}: {}", db, e.getMessage());
      }
    }, delay.toNanos(), TimeUnit.NANOSECONDS);
  }

  /**
   * Stops appending, writes a final checkpoint when records are not covered yet, and closes the
   * connection. A failed final checkpoint is thrown after everything is closed.
   */
  @Override
  public void close() {
    boolean needsCheckpoint;
    writeLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      failQueued(new LedgerException(LedgerCodes.LEDGER_CLOSED, "the ledger " + db + " is closed"));
      if (scheduledCheckpoint != null) {
        scheduledCheckpoint.cancel(false);
      }
      needsCheckpoint = uncheckpointed > 0;
    } finally {
      writeLock.unlock();
    }
    if (scheduler != null) {
      // Never interrupt a checkpoint in flight: an interrupted FileChannel closes mid-write.
      scheduler.shutdown();
      try {
        scheduler.awaitTermination(options.busyTimeout().toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    LedgerException failure = null;
    if (needsCheckpoint) {
      try {
        checkpoint();
      } catch (LedgerException e) {
        failure = e;
      }
    }
    checkpointLock.lock();
    try {
      connection.close();
    } catch (SQLException e) {
      if (failure == null) {
        failure = SqliteErrors.translate(e, db, "closing");
      }
    } finally {
      checkpointLock.unlock();
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static void closeQuietly(Connection c) {
    if (c != null) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // Already failing with the error that matters.
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LedgerException(LedgerCodes.LEDGER_BUSY, "interrupted while waiting for other writers of the ledger");
    }
  }

}
