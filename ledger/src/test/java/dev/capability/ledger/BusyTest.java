package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Another writer holds the database: an append waits for it, and only past the busy timeout fails, as LEDGER_BUSY. */
class BusyTest {
  @TempDir Path dir;

  @Test
  void anAppendWaitsForAnotherWriterToFinish() throws Exception {
    Path db = dir.resolve("state.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      ledger.record(Fixtures.completed(List.of("first"), 0, ""));
      CompletableFuture<Appended> waiting;
      try (Connection other = Fixtures.raw(db); Statement s = other.createStatement()) {
        s.execute("BEGIN IMMEDIATE");
        waiting = CompletableFuture.supplyAsync(() -> ledger.append(LedgerRecord.execution(Fixtures.completed(List.of("second"), 0, ""))));
        Thread.sleep(300);
        assertThat(waiting).as("held back by the other writer").isNotDone();
        s.execute("COMMIT");
      }
      assertThat(waiting.get().sequence()).isEqualTo(2);
    }
  }

  @Test
  void pastTheBusyTimeoutTheAppendFailsAsLedgerBusyNotAsSqlite() throws Exception {
    Path db = dir.resolve("state.db");
    SqliteLedger.open(db, Fixtures.options()).close();
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options().toBuilder().busyTimeout(Duration.ofMillis(200)).build());
        Connection other = Fixtures.raw(db);
        Statement s = other.createStatement()) {
      s.execute("BEGIN IMMEDIATE");
      assertThatThrownBy(() -> ledger.record(Fixtures.completed(List.of("blocked"), 0, "")))
          .isInstanceOf(LedgerException.class)
          .hasMessageContaining("other writers held the ledger")
          .extracting(e -> ((LedgerException) e).code()).isEqualTo("LEDGER_BUSY");
      s.execute("ROLLBACK");
      assertThat(ledger.append(LedgerRecord.execution(Fixtures.completed(List.of("then"), 0, ""))).sequence())
          .as("the ledger goes on once the other writer is gone").isEqualTo(1);
    }
  }
}
