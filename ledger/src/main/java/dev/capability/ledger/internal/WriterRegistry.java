package dev.capability.ledger.internal;

import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import dev.capability.ledger.LedgerOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * One {@link AppendLog} per database file per process, shared by every ledger opened on it and
 * closed with the last of them: SQLite serializes writers anyway, and one connection lets this
 * process group its threads' commits. The first opener's options apply.
 */
public final class WriterRegistry {
  private static final Map<Path, Shared> OPEN = new HashMap<>();

  private WriterRegistry() {}

  private static final class Shared {
    final AppendLog log;
    int references;

    Shared(AppendLog log) {
      this.log = log;
    }
  }

  /** The writer of {@code db}, opened when this process has none. */
  public static synchronized AppendLog acquire(Path db, LedgerOptions options) {
    Path key = identity(db);
    Shared shared = OPEN.get(key);
    if (shared == null) {
      shared = new Shared(AppendLog.open(key, options));
      OPEN.put(key, shared);
    }
    shared.references++;
    return shared.log;
  }

  /** Gives back a writer from {@link #acquire}; the last release closes it. */
  public static void release(AppendLog log) {
    boolean last;
    synchronized (WriterRegistry.class) {
      Shared shared = OPEN.get(log.database());
      if (shared == null || shared.log != log) {
        return;
      }
      last = --shared.references == 0;
      if (last) {
        OPEN.remove(log.database());
      }
    }
    if (last) {
      log.close();
    }
  }

  /**
   * The file's identity: its directory resolved through links. The database file itself must
   * not be a symbolic link, so that nobody can point the ledger at a file of their choice.
   */
  static Path identity(Path db) {
    Path absolute = db.toAbsolutePath().normalize();
    LedgerDatabase.requireSupportedPath(absolute);
    if (Files.isSymbolicLink(absolute)) {
      throw new LedgerException(LedgerCodes.LEDGER_PATH_UNSUPPORTED, "the ledger " + absolute + " is a symbolic link; refusing to follow it");
    }
    Path parent = absolute.getParent();
    if (parent == null || !Files.isDirectory(parent)) {
      throw new LedgerException(LedgerCodes.LEDGER_IO_ERROR, "the directory of the ledger " + absolute + " does not exist");
    }
    try {
      return parent.toRealPath().resolve(absolute.getFileName());
    } catch (IOException e) {
      throw new LedgerException(LedgerCodes.LEDGER_IO_ERROR, "cannot resolve the directory of " + absolute + ": " + e.getMessage(), e);
    }
  }
}
