package dev.capability.ledger.internal;

import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.Function;

/**
 * One read-only connection a writer's handle keeps for its reads, opened on first use: opening a
 * connection per read would cost more than the read. Outside a transaction, each statement sees
 * every commit made before it, by this process or another. Thread-safe: reads take turns.
 */
public final class ReadConnection implements AutoCloseable {
  private final Path db;
  private final Duration busyTimeout;
  // Guarded by this.
  private Connection connection;
  private boolean closed;

  public ReadConnection(Path db, Duration busyTimeout) {
    this.db = db;
    this.busyTimeout = busyTimeout;
  }

  /** Runs {@code query} on the connection; queries never run at the same time. */
  public synchronized <T> T read(Function<Connection, T> query) {
    if (closed) {
      throw new LedgerException(LedgerCodes.LEDGER_CLOSED, "the ledger " + db + " is closed");
    }
    if (connection == null) {
      connection = LedgerDatabase.openReader(db, busyTimeout);
    }
    return query.apply(connection);
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException e) {
        throw SqliteErrors.translate(e, db, "closing");
      } finally {
        connection = null;
      }
    }
  }
}
