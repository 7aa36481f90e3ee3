package dev.capability.ledger.internal;

import dev.capability.ledger.Appended;
import dev.capability.ledger.Durability;
import dev.capability.ledger.LedgerException;
import dev.capability.ledger.LedgerOptions;
import dev.capability.ledger.RecordKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
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
  private final LedgerKey key;
  private final CheckpointLog checkpoints;
  private final String ledgerId;
  private final String genesis;
  private final MessageDigest digest = ChainHash.newDigest();

  private final PreparedStatement begin;
  private final PreparedStatement commit;
  private final PreparedStatement rollback;
  private final PreparedStatement head;
  private final PreparedStatement insertEntry;
  private final Map<RecordKind, PreparedStatement> insertBody = new EnumMap<>(RecordKind.class);
  private final PreparedStatement planExists;
  private final PreparedStatement executionExists;

  private final ReentrantLock writeLock = new ReentrantLock();
  private final ArrayDeque<Pending> queue = new ArrayDeque<>();
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
    this.key = key;
    this.checkpoints = new CheckpointLog(options.checkpointFile(db));
    this.ledgerId = identity.ledgerId();
    this.genesis = ChainHash.genesis(ledgerId);
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
    this.planExists = connection.prepareStatement("SELECT 1 FROM plans WHERE plan_id = ?");
    this.executionExists = connection.prepareStatement("SELECT 1 FROM entries WHERE seq = ? AND kind = 'execution'");
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
        throw new LedgerException("LEDGER_IO_ERROR", "cannot create the ledger " + db + ": " + e.getMessage(), e);
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
        throw new LedgerException("LEDGER_KEY_MISMATCH", "the ledger " + db + " was created with key " + identity.keyId()
            + ", but " + keyFile + " holds key " + key.publicKey().keyId());
      }
      AppendLog log = new AppendLog(db, options, connection, key, identity);
      if (identity.created()) {
        log.writeCheckpoint(new Head(0, log.genesis));
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
      throw new LedgerException("LEDGER_READ_ONLY", "the ledger " + db + " cannot be written: " + (Files.isWritable(dir)
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
    Pending pending = new Pending(record);
    synchronized (queue) {
      queue.add(pending);
    }
    int committed = 0;
    writeLock.lock();
    try {
      while (!pending.done) {
        if (closed) {
          failQueued(new LedgerException("LEDGER_CLOSED", "the ledger " + db + " is closed"));
          break;
        }
        List<Pending> batch = new ArrayList<>();
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
  private int commit(List<Pending> batch) {
    try {
      return commitRetrying(batch);
    } catch (ConstraintInBatch e) {
      int landed = 0;
      for (Pending p : batch) {
        landed += commitRetrying(List.of(p));
      }
      return landed;
    }
  }

  private int commitRetrying(List<Pending> batch) {
    long deadline = System.nanoTime() + options.busyTimeout().toNanos();
    long backoffMillis = 1;
    while (true) {
      try {
        return commitOnce(batch);
      } catch (SQLException e) {
        if (SqliteErrors.isBusy(e) && System.nanoTime() < deadline) {
          sleep(backoffMillis);
          backoffMillis = Math.min(backoffMillis * 2, 64);
          continue;
        }
        LedgerException failure = SqliteErrors.translate(e, db, "appending to");
        batch.forEach(p -> p.fail(failure));
        return 0;
      } catch (ConstraintInBatch e) {
        throw e;
      } catch (RuntimeException e) {
        LedgerException failure = e instanceof LedgerException l ? l
            : new LedgerException("LEDGER_IO_ERROR", "appending to " + db + " failed: " + e, e);
        batch.forEach(p -> p.fail(failure));
        return 0;
      }
    }
  }

  /** A record broke a constraint in a transaction shared with others; everything was rolled back. */
  private static final class ConstraintInBatch extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ConstraintInBatch() {
      super(null, null, false, false);
    }
  }

  private int commitOnce(List<Pending> batch) throws SQLException {
    begin.execute();
    try {
      Head current = readHead();
      for (Pending p : batch) {
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
        String recordedAt = Timestamps.format(options.clock().instant());
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
    for (Pending p : batch) {
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
      throw new LedgerException("LEDGER_RECORD_INVALID", "the " + record.kind().id() + " refers to plan '"
          + record.planReference() + "', which the ledger does not hold");
    }
    if (record.executionReference() != null) {
      executionExists.setLong(1, record.executionReference());
      try (ResultSet rs = executionExists.executeQuery()) {
        if (!rs.next()) {
          throw new LedgerException("LEDGER_RECORD_INVALID", "the receipt refers to execution " + record.executionReference()
              + ", which is not an execution record of the ledger");
        }
      }
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

  private Head readHead() throws SQLException {
    try (ResultSet rs = head.executeQuery()) {
      return rs.next() ? new Head(rs.getLong(1), rs.getString(2)) : new Head(0, genesis);
    }
  }

  /** Writes a checkpoint of the current head now, unless one already covers it. */
  public void checkpoint() {
    checkpointLock.lock();
    try {
      Head current;
      long covered;
      writeLock.lock();
      try {
        current = currentHead();
        covered = uncheckpointed;
      } finally {
        writeLock.unlock();
      }
      writeCheckpoint(current);
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

  private Head currentHead() {
    try {
      return readHead();
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

  /** Forces the committed state to disk, then signs and appends a checkpoint of {@code current}. */
  private void writeCheckpoint(Head current) {
    if (options.durability() == Durability.NORMAL) {
      // Under synchronous=NORMAL the last commits may sit in the OS cache; a checkpoint must
      // never cover a record a power loss could take back.
      try {
        SafeFiles.forceIfExists(db.resolveSibling(db.getFileName() + "-wal"));
        SafeFiles.forceIfExists(db);
      } catch (IOException e) {
        throw new LedgerException("LEDGER_IO_ERROR", "cannot force " + db + " to disk before a checkpoint: " + e.getMessage(), e);
      }
    }
    checkpoints.append(Checkpoint.sign(key, ledgerId, current.seq(), current.hash(), Timestamps.format(options.clock().instant())));
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
      failQueued(new LedgerException("LEDGER_CLOSED", "the ledger " + db + " is closed"));
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
      throw new LedgerException("LEDGER_BUSY", "interrupted while waiting for other writers of the ledger");
    }
  }

  private record Head(long seq, String hash) {}

  /** One queued record; completed by whichever thread commits it. */
  private static final class Pending {
    final PreparedRecord record;
    Appended staged;
    LedgerException refusal;
    volatile boolean done;
    private Appended result;
    private LedgerException failure;

    Pending(PreparedRecord record) {
      this.record = record;
    }

    void succeed(Appended appended) {
      result = appended;
      done = true;
    }

    void fail(LedgerException e) {
      failure = e;
      done = true;
    }

    Appended result() {
      if (failure != null) {
        throw new LedgerException(failure.code(), failure.getMessage(), failure);
      }
      return result;
    }
  }
}
