package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.ledger.LedgerVerification.Status;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writing child JVM with SIGKILL at random points, many times, on one ledger: while it
 * creates the ledger, between commits, inside transactions and while it writes checkpoints. After
 * every kill the file must pass SQLite's integrity check, the chain must verify, no checkpoint may
 * cover a record that is not there, and every record the child reported committed must be there
 * with the hash it reported.
 */
class CrashTortureTest {
  /** Rounds of the torture; {@code -Dledger.torture.rounds=200} for a longer run. */
  private static final int ROUNDS = Integer.getInteger("ledger.torture.rounds", 20);

  @TempDir Path dir;

  @Test
  void killingAWriterAtRandomPointsLosesNothingCommittedAndNeverCorrupts() throws Exception {
    long seed = Long.getLong("ledger.torture.seed", System.nanoTime());
    Random random = new Random(seed);
    Path db = dir.resolve("state.db");
    Map<Long, String> reported = new HashMap<>();
    for (int round = 0; round < ROUNDS; round++) {
      int checkpointEvery = 1 + random.nextInt(20);
      ChildJvm child = ChildJvm.start(List.of(), "append", db.toString(), "1000000", "" + (1 + random.nextInt(3)), "" + checkpointEvery);
      boolean waitForReady = round > 0 || random.nextBoolean();
      if (waitForReady) {
        assertThat(child.awaitReady()).as("round %d (seed %d): the child opened the ledger", round, seed).isTrue();
      }
      Thread.sleep(random.nextInt(waitForReady ? 150 : 400));
      if (round == ROUNDS - 1 && reported.isEmpty()) {
        // However busy the machine, the last round kills a writer that has committed something.
        assertThat(child.awaitCommitted()).as("round %d (seed %d): the child committed a record", round, seed).isTrue();
      }
      child.kill();
      child.finish();
      for (String line : child.committed()) {
        String[] parts = line.split(" ");
        String previous = reported.put(Long.parseLong(parts[1]), parts[2]);
        assertThat(previous).as("round %d (seed %d): sequence %s reported twice", round, seed, parts[1]).isNull();
      }
      if (!java.nio.file.Files.exists(db)) {
        continue;
      }
      String context = "round " + round + " (seed " + seed + ")";
      try (Connection c = Fixtures.raw(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
        rs.next();
        assertThat(rs.getString(1)).as(context).isEqualTo("ok");
      }
      if (!java.nio.file.Files.exists(dir.resolve("ledger-key.pub"))) {
        continue;
      }
      LedgerReader reader;
      try {
        reader = LedgerReader.open(db, LedgerOptions.defaults());
      } catch (LedgerException e) {
        assertThat(e.code()).as(context + ": killed before the ledger was created").isEqualTo("LEDGER_NOT_FOUND");
        continue;
      }
      LedgerVerification v = reader.verify();
      assertThat(v.integrity().status()).as(context + ": " + v).isEqualTo(Status.INTACT);
      assertThat(v.completeness().status()).as(context + ": " + v).isIn(Status.INTACT, Status.NO_CHECKPOINT);
      Map<Long, String> stored = new HashMap<>();
      try (Connection c = Fixtures.raw(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT seq, hash FROM entries")) {
        while (rs.next()) {
          stored.put(rs.getLong(1), rs.getString(2));
        }
      }
      assertThat(stored).as(context + ": every record the children reported committed").containsAllEntriesOf(reported);
    }
    assertThat(reported).as("the children committed records before they were killed (seed %d)", seed).isNotEmpty();
    try (SqliteLedger ledger = SqliteLedger.open(db, LedgerOptions.defaults())) {
      Appended after = ledger.append(LedgerRecord.execution(Fixtures.completed(List.of("after"), 0, "")));
      assertThat(after.sequence()).isGreaterThan(reported.keySet().stream().mapToLong(Long::longValue).max().orElseThrow());
    }
    LedgerVerification last = LedgerReader.open(db, LedgerOptions.defaults()).verify();
    assertThat(last.intact()).as(last.toString()).isTrue();
  }
}
