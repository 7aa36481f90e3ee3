package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.ledger.LedgerVerification.Status;
import dev.capability.ledger.internal.ChainHash;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Attacks on a real ledger file, each as someone with write access to the database would make them. */
class LedgerVerificationTest {
  @TempDir Path dir;
  Path db;

  @BeforeEach
  void tenRecordsAllCheckpointed() {
    db = dir.resolve("state.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      for (int i = 1; i <= 10; i++) {
        ledger.record(i % 3 == 0 ? Fixtures.denied(List.of("rm", "-rf", "/" + i), "no") : Fixtures.completed(List.of("echo", "" + i), i % 2, "out" + i));
      }
    }
  }

  LedgerVerification verify() {
    return LedgerReader.open(db, Fixtures.options()).verify();
  }

  @Test
  void anUntouchedLedgerIsIntact() {
    LedgerVerification v = verify();
    assertThat(v.intact()).as(v.toString()).isTrue();
    assertThat(v.status()).isEqualTo(Status.INTACT);
    assertThat(v.records()).isEqualTo(10);
    assertThat(v.headSequence()).isEqualTo(10);
    assertThat(v.checkpointSequence()).isEqualTo(10);
    assertThat(v.uncheckpointed()).isZero();
  }

  @Test
  void anEditedRecordBreaksTheChainAtItsSequence() throws Exception {
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      int changed = s.executeUpdate("UPDATE executions SET attestation = replace(attestation, '\"exitCode\":1', '\"exitCode\":0') WHERE seq = 5");
      assertThat(changed).isEqualTo(1);
    }
    LedgerVerification v = verify();
    assertThat(v.status()).isEqualTo(Status.CHAIN_BROKEN);
    assertThat(v.sequence()).isEqualTo(5);
    assertThat(v.message()).contains("does not match its hash");
    assertThat(v.completeness().status()).isEqualTo(Status.INTACT);
  }

  @Test
  void anEditedColumnOfTheChainItselfBreaksIt() throws Exception {
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      s.executeUpdate("UPDATE entries SET recorded_at = '2020-01-01T00:00:00.000000Z' WHERE seq = 7");
    }
    assertThat(verify()).satisfies(v -> {
      assertThat(v.status()).isEqualTo(Status.CHAIN_BROKEN);
      assertThat(v.sequence()).isEqualTo(7);
    });
  }

  @Test
  void aDeletedMiddleRecordBreaksTheChainWhereItWas() throws Exception {
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      s.executeUpdate("DELETE FROM executions WHERE seq = 4");
      s.executeUpdate("DELETE FROM entries WHERE seq = 4");
    }
    LedgerVerification v = verify();
    assertThat(v.status()).isEqualTo(Status.CHAIN_BROKEN);
    assertThat(v.sequence()).isEqualTo(4);
    assertThat(v.message()).contains("record 4 is missing");
  }

  @Test
  void aDeletedMiddleRecordWithTheFollowingRenumberedIsStillCaught() throws Exception {
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      s.executeUpdate("DELETE FROM executions WHERE seq = 4");
      s.executeUpdate("DELETE FROM entries WHERE seq = 4");
      for (int seq = 5; seq <= 10; seq++) {
        s.executeUpdate("UPDATE entries SET seq = " + (seq - 1) + " WHERE seq = " + seq);
        s.executeUpdate("UPDATE executions SET seq = " + (seq - 1) + " WHERE seq = " + seq);
        s.executeUpdate("UPDATE decisions SET seq = " + (seq - 1) + " WHERE seq = " + seq);
      }
    }
    LedgerVerification v = verify();
    assertThat(v.status()).isEqualTo(Status.CHAIN_BROKEN);
    assertThat(v.sequence()).isEqualTo(4);
  }

  @Test
  void deletedTrailingRecordsAreTruncatedBelowTheCheckpoint() throws Exception {
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      s.executeUpdate("DELETE FROM executions WHERE seq >= 8");
      s.executeUpdate("DELETE FROM entries WHERE seq >= 8");
    }
    LedgerVerification v = verify();
    assertThat(v.integrity().status()).as("what is left still chains").isEqualTo(Status.INTACT);
    assertThat(v.completeness().status()).isEqualTo(Status.TRUNCATED_BELOW_CHECKPOINT);
    assertThat(v.status()).isEqualTo(Status.TRUNCATED_BELOW_CHECKPOINT);
    assertThat(v.sequence()).isEqualTo(8);
    assertThat(v.message()).contains("records 8 to 10 are gone");
  }

  @Test
  void aRewrittenAndRechainedHistoryDisagreesWithTheSignedCheckpoint() throws Exception {
    rechainFrom(3, "UPDATE executions SET attestation = replace(attestation, '\"exitCode\":0', '\"exitCode\":9') WHERE seq = 4");
    LedgerVerification v = verify();
    assertThat(v.status()).isEqualTo(Status.CHECKPOINT_MISMATCH);
    assertThat(v.sequence()).isEqualTo(10);
    assertThat(v.message()).contains("rewritten");
  }

  @Test
  void aForgedCheckpointIsReportedInvalid() throws Exception {
    Path checkpoints = dir.resolve("checkpoints");
    List<String> lines = Files.readAllLines(checkpoints);
    String last = lines.get(lines.size() - 1);
    String forged = last.replaceFirst("\"sequence\":10", "\"sequence\":12");
    Files.writeString(checkpoints, String.join("\n", lines) + "\n" + forged + "\n");
    LedgerVerification v = verify();
    assertThat(v.integrity().intact()).isTrue();
    assertThat(v.status()).isEqualTo(Status.CHECKPOINT_INVALID);
    assertThat(v.message()).contains("not signed by the ledger key");
    assertThat(v.checkpointSequence()).as("the forged checkpoint counts for nothing").isEqualTo(10);
  }

  @Test
  void aCheckpointFromAnotherLedgerIsReportedInvalid() throws Exception {
    Path other = dir.resolve("other");
    Files.createDirectory(other);
    try (SqliteLedger ledger = SqliteLedger.open(other.resolve("state.db"), Fixtures.options())) {
      ledger.record(Fixtures.completed(List.of("x"), 0, ""));
    }
    Files.writeString(dir.resolve("checkpoints"), Files.readString(other.resolve("checkpoints")), java.nio.file.StandardOpenOption.APPEND);
    LedgerVerification v = verify();
    assertThat(v.status()).isEqualTo(Status.CHECKPOINT_INVALID);
    assertThat(v.message()).contains("belongs to ledger");
  }

  @Test
  void aMissingCheckpointFileLeavesCompletenessUnproven() throws Exception {
    Files.delete(dir.resolve("checkpoints"));
    LedgerVerification v = verify();
    assertThat(v.integrity().intact()).isTrue();
    assertThat(v.status()).isEqualTo(Status.NO_CHECKPOINT);
  }

  @Test
  void aMissingPublicKeyLeavesTheCheckpointsUnverifiable() throws Exception {
    Files.delete(dir.resolve("ledger-key.pub"));
    LedgerVerification v = verify();
    assertThat(v.status()).isEqualTo(Status.CHECKPOINT_INVALID);
    assertThat(v.message()).contains("public key");
  }

  @Test
  void anInsertedRowOutsideTheChainIsFound() throws Exception {
    try (Connection c = Fixtures.raw(db); PreparedStatement s = c.prepareStatement("INSERT INTO plans (seq, body) VALUES (?, ?)")) {
      s.setLong(1, 2);
      s.setString(2, "{\"fingerprint\":\"smuggled\"}");
      s.executeUpdate();
    }
    LedgerVerification v = verify();
    assertThat(v.status()).isEqualTo(Status.UNCHAINED_RECORD);
    assertThat(v.sequence()).isEqualTo(2);
    assertThat(LedgerReader.open(db, Fixtures.options()).list(LedgerQuery.latest(20)))
        .as("list shows records of the chain only").noneMatch(s -> "smuggled".equals(s.planFingerprint()));
  }

  @Test
  void appendedRecordsNotYetCheckpointedAreCountedAsUncovered() {
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options().toBuilder().checkpointEvery(100).build())) {
      ledger.record(Fixtures.completed(List.of("a"), 0, ""));
      ledger.record(Fixtures.completed(List.of("b"), 0, ""));
      LedgerVerification v = ledger.reader().verify();
      assertThat(v.intact()).isTrue();
      assertThat(v.checkpointSequence()).isEqualTo(10);
      assertThat(v.uncheckpointed()).isEqualTo(2);
    }
    assertThat(verify().uncheckpointed()).as("closing checkpoints").isZero();
  }

  @Test
  void anIdleWriterCheckpointsWithinItsMaximumDelay() throws Exception {
    LedgerOptions options = Fixtures.options().toBuilder().checkpointEvery(1000).checkpointMaxDelay(java.time.Duration.ofMillis(50)).build();
    try (SqliteLedger ledger = SqliteLedger.open(db, options)) {
      ledger.record(Fixtures.completed(List.of("late"), 0, ""));
      LedgerReader reader = ledger.reader();
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
      while (reader.verify().uncheckpointed() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      LedgerVerification v = reader.verify();
      assertThat(v.uncheckpointed()).as("the timer covered the record while the ledger stayed open").isZero();
      assertThat(v.checkpointSequence()).isEqualTo(11);
    }
  }

  @Test
  void aCorruptedPageIsReportedAndTheFileIsNotChanged() throws Exception {
    long rootPage;
    int pageSize;
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT rootpage FROM sqlite_schema WHERE name = 'entries'")) {
        rs.next();
        rootPage = rs.getLong(1);
      }
      try (ResultSet rs = s.executeQuery("PRAGMA page_size")) {
        rs.next();
        pageSize = rs.getInt(1);
      }
    }
    assertThat(dir.resolve("state.db-wal")).as("closing folded the journal into the file").doesNotExist();
    try (RandomAccessFile file = new RandomAccessFile(db.toFile(), "rw")) {
      // The first byte of a b-tree page says what kind of page it is; 0x5a is none.
      file.seek((rootPage - 1) * pageSize);
      file.write(0x5a);
    }
    byte[] before = Files.readAllBytes(db);

    LedgerVerification v = verify();

    assertThat(v.status()).isEqualTo(Status.STORAGE_CORRUPT);
    assertThat(v.intact()).isFalse();
    assertThat(Files.readAllBytes(db)).isEqualTo(before);
  }

  @Test
  void aCorruptedIndexEscapesTheWalkButNotTheStorageCheck() throws Exception {
    long rootPage;
    int pageSize;
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT rootpage FROM sqlite_schema WHERE name = 'entries_recorded_at'")) {
        rs.next();
        rootPage = rs.getLong(1);
      }
      try (ResultSet rs = s.executeQuery("PRAGMA page_size")) {
        rs.next();
        pageSize = rs.getInt(1);
      }
    }
    try (RandomAccessFile file = new RandomAccessFile(db.toFile(), "rw")) {
      file.seek((rootPage - 1) * pageSize);
      file.write(0x5a);
    }
    assertThat(verify().intact()).as("the records themselves are intact").isTrue();
    LedgerVerification deep = LedgerReader.open(db, Fixtures.options()).verify(true);
    assertThat(deep.status()).isEqualTo(Status.STORAGE_CORRUPT);
  }

  /** Applies {@code edit}, then recomputes every hash from {@code fromSeq} on, as a careful attacker would. */
  private void rechainFrom(long fromSeq, String edit) throws Exception {
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      s.executeUpdate(edit);
      String prev;
      try (ResultSet rs = s.executeQuery("SELECT hash FROM entries WHERE seq = " + (fromSeq - 1))) {
        rs.next();
        prev = rs.getString(1);
      }
      var digest = ChainHash.newDigest();
      for (long seq = fromSeq; seq <= 10; seq++) {
        String kind;
        String recordedAt;
        String body;
        try (ResultSet rs = s.executeQuery("SELECT e.kind, e.recorded_at, COALESCE(x.attestation, d.body) FROM entries e "
            + "LEFT JOIN executions x ON x.seq = e.seq LEFT JOIN decisions d ON d.seq = e.seq WHERE e.seq = " + seq)) {
          rs.next();
          kind = rs.getString(1);
          recordedAt = rs.getString(2);
          body = rs.getString(3);
        }
        String hash = ChainHash.hash(digest, prev, seq, kind, recordedAt, body.getBytes(StandardCharsets.UTF_8));
        try (PreparedStatement u = c.prepareStatement("UPDATE entries SET prev_hash = ?, hash = ? WHERE seq = ?")) {
          u.setString(1, prev);
          u.setString(2, hash);
          u.setLong(3, seq);
          u.executeUpdate();
        }
        prev = hash;
      }
    }
  }
}
