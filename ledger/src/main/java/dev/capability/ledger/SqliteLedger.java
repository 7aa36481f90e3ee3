package dev.capability.ledger;

import dev.capability.kernel.api.store.AssumptionRecord;
import dev.capability.kernel.api.store.ContractRecord;
import dev.capability.kernel.api.store.CorrectionRecord;
import dev.capability.kernel.api.store.PhaseRecord;
import dev.capability.kernel.api.store.Stored;
import dev.capability.kernel.api.store.WorkPlanRecord;
import dev.capability.ledger.internal.AppendLog;
import dev.capability.ledger.internal.PreparedRecord;
import dev.capability.ledger.internal.ReadConnection;
import dev.capability.ledger.internal.SafeFiles;
import dev.capability.ledger.internal.WorkPlanQueries;
import dev.capability.ledger.internal.WriterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The evidence ledger: every record appended to a hash chain in a SQLite database (WAL mode,
 * foreign keys on, {@code PRAGMA user_version} migrations), with Ed25519-signed checkpoints of the
 * chain's head in a file outside it. See {@code docs/ledger.md}.
 *
 * <p>Thread-safe. Any number of threads and processes may append at once: in one process they
 * share one writer connection and group their commits; between processes SQLite's lock orders
 * them, and a busy database is waited for (up to {@link LedgerOptions#busyTimeout()}), never
 * reported. Close it to write the final checkpoint.
 *
 * <pre>{@code
 * try (SqliteLedger ledger = SqliteLedger.forRepository(repo)) {
 *   ledger.record(kernel.execute(request));
 * }
 * }</pre>
 */
public final class SqliteLedger implements LedgerWriter {
  private final AppendLog log;
  private final LedgerOptions options;
  private final ReadConnection reads;
  // Used only inside reads.read, which takes turns: its digest is not shared between threads.
  private final WorkPlanQueries workPlans;
  private final AtomicBoolean closed = new AtomicBoolean();

  private SqliteLedger(AppendLog log, LedgerOptions options) {
    this.log = log;
    this.options = options;
    this.reads = new ReadConnection(log.database(), options.busyTimeout());
    this.workPlans = new WorkPlanQueries(log.database());
  }

  /**
   * Opens the ledger at {@code dbFile}, creating it (and its key) when the file does not exist or
   * is empty, and migrating an older schema forward. Refuses, and leaves untouched, a file that is
   * not a ledger, a ledger of a newer schema, or a damaged one. Ledgers opened on one file in one
   * process share one writer connection, with the options of the first.
   */
  public static SqliteLedger open(Path dbFile, LedgerOptions options) {
    Objects.requireNonNull(dbFile, "dbFile");
    Objects.requireNonNull(options, "options");
    return new SqliteLedger(WriterRegistry.acquire(dbFile, options), options);
  }

  /**
   * The ledger of {@code repository}: {@code <repository>/.capability/state.db}, with the key and
   * checkpoints beside it. Creates {@code .capability} (mode 0700) when missing; refuses one that
   * is a symbolic link.
   */
  public static SqliteLedger forRepository(Path repository) {
    return forRepository(repository, LedgerOptions.defaults());
  }

  /**
   * The ledger of {@code repository}, as {@link #forRepository(Path)}, with {@code options}: for
   * example without timed checkpoints, for a ledger open while commands run in that repository.
   */
  public static SqliteLedger forRepository(Path repository, LedgerOptions options) {
    Objects.requireNonNull(options, "options");
    Path db = databaseFile(repository);
    Path dir = db.getParent();
    if (!Files.isDirectory(repository)) {
      throw new LedgerException(LedgerCodes.LEDGER_IO_ERROR, "the repository " + repository + " is not a directory");
    }
    if (Files.isSymbolicLink(dir)) {
      throw new LedgerException(LedgerCodes.LEDGER_PATH_UNSUPPORTED, dir + " is a symbolic link; the ledger refuses to follow it");
    }
    try {
      SafeFiles.createPrivateDirectory(dir);
    } catch (IOException e) {
      throw new LedgerException(LedgerCodes.LEDGER_IO_ERROR, "cannot create " + dir + ": " + e.getMessage(), e);
    }
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      throw new LedgerException(LedgerCodes.LEDGER_PATH_UNSUPPORTED, dir + " is not a directory");
    }
    return open(db, options);
  }

  /** Where the ledger of {@code repository} lives. */
  public static Path databaseFile(Path repository) {
    return Objects.requireNonNull(repository, "repository").toAbsolutePath().normalize().resolve(".capability").resolve("state.db");
  }

  @Override
  public Appended append(LedgerRecord record) {
    Objects.requireNonNull(record, "record");
    requireOpen();
    return log.append(PreparedRecord.of(record));
  }

  /**
   * Reads through a read-only connection this handle keeps (opened on first read, closed with the
   * handle): it sees every record committed, by this process or another. Each row read is checked
   * against its chain entry, as {@link LedgerReader#currentContract()} says.
   */
  @Override
  public Optional<Stored<ContractRecord>> currentContract() {
    requireOpen();
    return reads.read(workPlans::currentContract);
  }

  @Override
  public List<Stored<WorkPlanRecord>> workPlanRevisions() {
    requireOpen();
    return reads.read(workPlans::workPlanRevisions);
  }

  @Override
  public List<Stored<PhaseRecord>> phaseRecords(String workPlanId) {
    Objects.requireNonNull(workPlanId, "workPlanId");
    requireOpen();
    return reads.read(c -> workPlans.phaseRecords(c, workPlanId));
  }

  @Override
  public List<Stored<AssumptionRecord>> assumptions() {
    requireOpen();
    return reads.read(workPlans::assumptions);
  }

  @Override
  public List<Stored<CorrectionRecord>> corrections(String assumptionId) {
    Objects.requireNonNull(assumptionId, "assumptionId");
    requireOpen();
    return reads.read(c -> workPlans.corrections(c, assumptionId));
  }

  private void requireOpen() {
    if (closed.get()) {
      throw new LedgerException(LedgerCodes.LEDGER_CLOSED, "the ledger " + log.database() + " is closed");
    }
  }

  /** Signs and writes a checkpoint of the current head now. */
  public void checkpoint() {
    requireOpen();
    log.checkpoint();
  }

  /** A reader of this ledger, with the same options. */
  public LedgerReader reader() {
    return LedgerReader.open(log.database(), options);
  }

  /** The database file. */
  public Path databaseFile() {
    return log.database();
  }

  /**
   * Closes this handle; the process's writer closes with the last handle on the file, after a
   * final checkpoint of whatever it appended since its last one.
   *
   * @throws LedgerException when that final checkpoint could not be written
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      try {
        reads.close();
      } finally {
        WriterRegistry.release(log);
      }
    }
  }
}
