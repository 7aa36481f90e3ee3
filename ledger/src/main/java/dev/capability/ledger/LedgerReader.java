package dev.capability.ledger;

import dev.capability.kernel.api.store.AssumptionRecord;
import dev.capability.kernel.api.store.ContractRecord;
import dev.capability.kernel.api.store.CorrectionRecord;
import dev.capability.kernel.api.store.PhaseRecord;
import dev.capability.kernel.api.store.Stored;
import dev.capability.kernel.api.store.WorkPlanRecord;
import dev.capability.ledger.internal.ChainVerifier;
import dev.capability.ledger.internal.CheckpointLog;
import dev.capability.ledger.internal.EntryQueries;
import dev.capability.ledger.internal.Exporter;
import dev.capability.ledger.internal.LedgerDatabase;
import dev.capability.ledger.internal.LedgerKey;
import dev.capability.ledger.internal.LedgerMeta;
import dev.capability.ledger.internal.Schema;
import dev.capability.ledger.internal.WorkPlanQueries;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads an existing ledger: lists and shows records, verifies the chain and checkpoints, and
 * exports. Never writes the database, never creates one; safe to use while others append. Each
 * call opens its own read-only connection, so one reader may be shared between threads.
 */
public final class LedgerReader {
  private final Path db;
  private final LedgerOptions options;

  private LedgerReader(Path db, LedgerOptions options) {
    this.db = db;
    this.options = options;
  }

  /** The ledger at {@code dbFile}; refuses a missing file and anything that is not a ledger. */
  public static LedgerReader open(Path dbFile, LedgerOptions options) {
    Objects.requireNonNull(options, "options");
    Path db = Objects.requireNonNull(dbFile, "dbFile").toAbsolutePath().normalize();
    if (!Files.isRegularFile(db)) {
      throw new LedgerException(LedgerCodes.LEDGER_NOT_FOUND, "there is no ledger at " + db);
    }
    LedgerDatabase.Inspection inspection = LedgerDatabase.inspect(db, options.busyTimeout());
    if (inspection.state() == LedgerDatabase.State.NEW) {
      throw new LedgerException(LedgerCodes.LEDGER_NOT_FOUND, db + " is empty: there is no ledger in it yet");
    }
    if (inspection.version() < Schema.currentVersion()) {
      throw new LedgerException(LedgerCodes.LEDGER_SCHEMA_OLD, db + " has ledger schema version " + inspection.version()
          + "; open it once for writing (any recording command) to migrate it to version " + Schema.currentVersion());
    }
    return new LedgerReader(db, options);
  }

  /** The ledger of {@code repository}, at {@code <repository>/.capability/state.db}. */
  public static LedgerReader forRepository(Path repository) {
    return open(SqliteLedger.databaseFile(repository), LedgerOptions.defaults());
  }

  /** The database file. */
  public Path databaseFile() {
    return db;
  }

  /** The records {@code query} selects, newest first. */
  public List<EntrySummary> list(LedgerQuery query) {
    Objects.requireNonNull(query, "query");
    try (Connection c = connect()) {
      return new EntryQueries(db).list(c, query);
    } catch (SQLException e) {
      throw closing(e);
    }
  }

  /** Record {@code sequence}, if the ledger holds it. */
  public Optional<LedgerEntry> show(long sequence) {
    try (Connection c = connect()) {
      return new EntryQueries(db).show(c, sequence);
    } catch (SQLException e) {
      throw closing(e);
    }
  }

  /**
   * The project contract recorded last, if any. Like every read of a work plan's records, it checks
   * each record it reads against its chain entry and hash, and refuses one that does not match, or
   * whose body is not the record it must be, with {@code LEDGER_CORRUPT}.
   */
  public Optional<Stored<ContractRecord>> currentContract() {
    try (Connection c = connect()) {
      return new WorkPlanQueries(db).currentContract(c);
    } catch (SQLException e) {
      throw closing(e);
    }
  }

  /** Every revision of every work plan, oldest first; checked as {@link #currentContract()} is. */
  public List<Stored<WorkPlanRecord>> workPlanRevisions() {
    try (Connection c = connect()) {
      return new WorkPlanQueries(db).workPlanRevisions(c);
    } catch (SQLException e) {
      throw closing(e);
    }
  }

  /** Every phase record of the work plan {@code workPlanId}, oldest first; checked as {@link #currentContract()} is. */
  public List<Stored<PhaseRecord>> phaseRecords(String workPlanId) {
    Objects.requireNonNull(workPlanId, "workPlanId");
    try (Connection c = connect()) {
      return new WorkPlanQueries(db).phaseRecords(c, workPlanId);
    } catch (SQLException e) {
      throw closing(e);
    }
  }

  /** Every assumption, oldest first; checked as {@link #currentContract()} is. */
  public List<Stored<AssumptionRecord>> assumptions() {
    try (Connection c = connect()) {
      return new WorkPlanQueries(db).assumptions(c);
    } catch (SQLException e) {
      throw closing(e);
    }
  }

  /** Every correction record of the assumption {@code assumptionId}, oldest first; checked as {@link #currentContract()} is. */
  public List<Stored<CorrectionRecord>> corrections(String assumptionId) {
    Objects.requireNonNull(assumptionId, "assumptionId");
    try (Connection c = connect()) {
      return new WorkPlanQueries(db).corrections(c, assumptionId);
    } catch (SQLException e) {
      throw closing(e);
    }
  }

  /**
   * Checks the whole chain and the checkpoints: every record's place, link and hash, every
   * checkpoint's signature and head, and that no checkpoint covers a record that is gone.
   */
  public LedgerVerification verify() {
    return verify(false);
  }

  /**
   * {@link #verify()}, and with {@code checkStorage} also SQLite's own structural check of every
   * page ({@code PRAGMA quick_check}), indexes included; that reads the whole file once more.
   */
  public LedgerVerification verify(boolean checkStorage) {
    try (Connection c = connect()) {
      return verifier().verify(c, checkStorage);
    } catch (SQLException e) {
      throw closing(e);
    }
  }

  /**
   * Writes the ledger to {@code out} and returns how many records it wrote. {@link
   * ExportFormat#JSONL} writes every record, as stored, whatever verification says (useful to
   * examine a damaged ledger). {@link ExportFormat#INTOTO} signs, so it first verifies the ledger,
   * refuses with {@code LEDGER_NOT_INTACT} unless it is intact, and exports only the executions
   * and acquisitions a checkpoint covers; it needs the private key.
   */
  public long export(ExportFormat format, OutputStream out) {
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(out, "out");
    try (Connection c = connect()) {
      if (format == ExportFormat.JSONL) {
        return new Exporter(db).jsonl(c, out);
      }
      LedgerVerification verification = verifier().verify(c, false);
      if (!verification.intact()) {
        throw new LedgerException(LedgerCodes.LEDGER_NOT_INTACT, "refusing to sign an export of " + db + ": "
            + verification.status() + " at " + verification.sequence() + ": " + verification.message());
      }
      LedgerKey key = LedgerKey.load(options.keyFile(db));
      LedgerMeta meta = LedgerMeta.read(c, db);
      if (!meta.keyId().equals(key.publicKey().keyId())) {
        throw new LedgerException(LedgerCodes.LEDGER_KEY_MISMATCH, "the ledger " + db + " was created with key " + meta.keyId()
            + ", but " + options.keyFile(db) + " holds key " + key.publicKey().keyId());
      }
      return new Exporter(db).intoto(c, out, key, meta.ledgerId(), verification.checkpointSequence());
    } catch (SQLException e) {
      throw closing(e);
    }
  }

  private ChainVerifier verifier() {
    return new ChainVerifier(db, new CheckpointLog(options.checkpointFile(db)), options.publicKeyFile(db));
  }

  private Connection connect() {
    return LedgerDatabase.openReader(db, options.busyTimeout());
  }

  private LedgerException closing(SQLException e) {
    return new LedgerException(LedgerCodes.LEDGER_IO_ERROR, "cannot close the connection to " + db + ": " + e.getMessage(), e);
  }
}
