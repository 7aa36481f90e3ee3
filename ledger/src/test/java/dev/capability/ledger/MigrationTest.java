package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.ledger.internal.ChainHash;
import dev.capability.ledger.internal.Schema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every schema version this code has ever written opens, migrates forward to the current one,
 * keeps its records byte for byte, and goes on chaining. Databases of each version are built here
 * by hand from the released migration statements, not by the writer under test.
 */
class MigrationTest {
  @TempDir Path dir;

  static IntStream everyVersion() {
    return IntStream.rangeClosed(0, Schema.currentVersion());
  }

  @ParameterizedTest(name = "from version {0}")
  @MethodSource("everyVersion")
  void aLedgerOfEveryEarlierVersionMigratesForwardKeepingItsHistory(int version) throws Exception {
    Path db = dir.resolve("state.db");
    // The ledger key must exist before a hand-built ledger names it: create it with an empty ledger elsewhere.
    SqliteLedger.open(dir.resolve("seed.db"), Fixtures.options()).close();
    String keyId = keyId();
    List<String> bodies = List.of(
        CanonicalJson.serialize(AttestationJson.toMap(Fixtures.completed(List.of("ls"), 0, "").attestation())),
        CanonicalJson.serialize(AttestationJson.toMap(Fixtures.denied(List.of("rm", "-rf", "/"), "no").attestation())));
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      s.execute("VACUUM");
      if (version > 0) {
        for (Schema.Migration step : Schema.migrations(0, version)) {
          for (String sql : step.statements()) {
            s.execute(sql);
          }
        }
        s.execute("PRAGMA user_version = " + version);
        s.execute("PRAGMA application_id = " + Schema.APPLICATION_ID);
        s.execute("INSERT INTO ledger_meta (name, value) VALUES ('format', 'capability-ledger'), ('ledger_id', 'ledger-v" + version
            + "'), ('created_at', '2026-01-01T00:00:00.000000Z'), ('key_id', '" + keyId + "')");
        String prev = ChainHash.genesis("ledger-v" + version);
        for (int i = 0; i < bodies.size(); i++) {
          long seq = i + 1;
          String at = "2026-01-01T00:00:0" + seq + ".000000Z";
          String hash = ChainHash.hash(ChainHash.newDigest(), prev, seq, "execution", at,
              bodies.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
          try (PreparedStatement p = c.prepareStatement("INSERT INTO entries (seq, kind, recorded_at, prev_hash, hash) VALUES (?, 'execution', ?, ?, ?)")) {
            p.setLong(1, seq);
            p.setString(2, at);
            p.setString(3, prev);
            p.setString(4, hash);
            p.executeUpdate();
          }
          try (PreparedStatement p = c.prepareStatement("INSERT INTO executions (seq, attestation) VALUES (?, ?)")) {
            p.setLong(1, seq);
            p.setString(2, bodies.get(i));
            p.executeUpdate();
          }
          prev = hash;
        }
      }
    }
    String before = version > 0 ? SqliteLedgerTest.dump(db) : "";

    long next;
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options().toBuilder().keyFile(dir.resolve("ledger-key")).build())) {
      next = ledger.append(LedgerRecord.execution(Fixtures.completed(List.of("after"), 0, ""))).sequence();
    }

    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA user_version")) {
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(Schema.currentVersion());
    }
    assertThat(next).isEqualTo(version > 0 ? 3 : 1);
    assertThat(SqliteLedgerTest.dump(db)).startsWith(before);
    LedgerVerification v = LedgerReader.open(db, Fixtures.options()).verify();
    assertThat(v.integrity().intact()).as(v.toString()).isTrue();
    assertThat(v.records()).isEqualTo(next);
  }

  @org.junit.jupiter.api.Test
  void aVersionOneLedgerMigratesInPlaceTakesAcquisitionsAndStillVerifies() throws Exception {
    Path db = dir.resolve("state.db");
    Path key = dir.resolve("ledger-key");
    LedgerOptions options = Fixtures.options().toBuilder().keyFile(key).build();
    // Built by this code, then taken back to exactly what version 1 wrote: its tables, and user_version 1.
    try (SqliteLedger ledger = SqliteLedger.open(db, options)) {
      ledger.record(Fixtures.completed(List.of("ls"), 0, ""));
      ledger.append(LedgerRecord.of(RecordKind.PLAN, Fixtures.plan("p-1")));
      ledger.append(LedgerRecord.of(RecordKind.RECEIPT, java.util.Map.of("fingerprint", Fixtures.fingerprint("p-1"), "status", "DONE")));
    }
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      for (String laterTable : List.of("contracts", "work_plans", "phases", "assumptions", "corrections", "evaluations")) {
        s.execute("DROP TABLE " + laterTable);
      }
      s.execute("DROP TABLE acquisitions");
      s.execute("PRAGMA user_version = 1");
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM sqlite_schema WHERE tbl_name = 'acquisitions'")) {
        rs.next();
        assertThat(rs.getInt(1)).isZero();
      }
    }
    assertThat(catchCode(() -> LedgerReader.open(db, options))).isEqualTo("LEDGER_SCHEMA_OLD");
    String before = SqliteLedgerTest.dump(db);

    try (SqliteLedger ledger = SqliteLedger.open(db, options)) {
      assertThat(ledger.append(LedgerRecord.of(RecordKind.ACQUISITION, AcquisitionRecordTest.acquisition(
          "com.example:hello:1.0.0@zip", AcquisitionRecordTest.HELLO_SHA256, true, "ACQUIRED"))).sequence()).isEqualTo(4);
    }

    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("PRAGMA user_version")) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(Schema.currentVersion());
      }
      try (ResultSet rs = s.executeQuery("SELECT seq, accepted, code FROM acquisitions WHERE sha256 = '" + AcquisitionRecordTest.HELLO_SHA256 + "'")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(4);
        assertThat(rs.getInt(2)).isEqualTo(1);
        assertThat(rs.getString(3)).isEqualTo("ACQUIRED");
      }
    }
    assertThat(SqliteLedgerTest.dump(db)).isEqualTo(before);
    LedgerReader reader = LedgerReader.open(db, options);
    LedgerVerification v = reader.verify(true);
    assertThat(v.intact()).as(v.toString()).isTrue();
    assertThat(v.records()).isEqualTo(4);
    assertThat(v.checkpointSequence()).isEqualTo(4);
    assertThat(reader.list(LedgerQuery.latest(10))).extracting(EntrySummary::kind)
        .containsExactly(RecordKind.ACQUISITION, RecordKind.RECEIPT, RecordKind.PLAN, RecordKind.EXECUTION);
  }

  @org.junit.jupiter.api.Test
  void aVersionTwoLedgerMigratesInPlaceTakesWorkPlansAndStillVerifies() throws Exception {
    Path db = dir.resolve("state.db");
    Path key = dir.resolve("ledger-key");
    LedgerOptions options = Fixtures.options().toBuilder().keyFile(key).build();
    // Built by this code, then taken back to exactly what version 2 wrote: its tables, and user_version 2.
    try (SqliteLedger ledger = SqliteLedger.open(db, options)) {
      ledger.record(Fixtures.completed(List.of("ls"), 0, ""));
      ledger.append(LedgerRecord.of(RecordKind.ACQUISITION, AcquisitionRecordTest.acquisition(
          "com.example:hello:1.0.0@zip", AcquisitionRecordTest.HELLO_SHA256, true, "ACQUIRED")));
    }
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      s.execute("DROP TABLE contracts");
      s.execute("DROP TABLE work_plans");
      s.execute("DROP TABLE phases");
      s.execute("DROP TABLE assumptions");
      s.execute("DROP TABLE corrections");
      s.execute("DROP TABLE evaluations");
      s.execute("PRAGMA user_version = 2");
    }
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM sqlite_schema WHERE tbl_name IN ('contracts', 'work_plans', 'phases')")) {
      rs.next();
      assertThat(rs.getInt(1)).isZero();
    }
    assertThat(catchCode(() -> LedgerReader.open(db, options))).isEqualTo("LEDGER_SCHEMA_OLD");
    String before = SqliteLedgerTest.dump(db);

    try (SqliteLedger ledger = SqliteLedger.open(db, options)) {
      assertThat(ledger.recordContract(new dev.capability.kernel.api.store.ContractRecord("sha256:c", java.util.Map.of()))).isEqualTo(3);
      assertThat(ledger.recordWorkPlan(new dev.capability.kernel.api.store.WorkPlanRecord("wp", 1, "sha256:r", java.util.Map.of())))
          .isEqualTo(4);
      assertThat(ledger.recordPhase(new dev.capability.kernel.api.store.PhaseRecord("wp", 1, "build", "VERIFIED", List.of(1L),
          java.util.Map.of()))).isEqualTo(5);
      assertThat(ledger.phaseRecords("wp")).singleElement().extracting(p -> p.record().executionSequences()).isEqualTo(List.of(1L));
    }

    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA user_version")) {
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(Schema.currentVersion());
    }
    assertThat(SqliteLedgerTest.dump(db)).isEqualTo(before);
    LedgerReader reader = LedgerReader.open(db, options);
    LedgerVerification v = reader.verify(true);
    assertThat(v.intact()).as(v.toString()).isTrue();
    assertThat(v.records()).isEqualTo(5);
    assertThat(reader.list(LedgerQuery.latest(10))).extracting(EntrySummary::kind).containsExactly(
        RecordKind.PHASE, RecordKind.WORK_PLAN, RecordKind.CONTRACT, RecordKind.ACQUISITION, RecordKind.EXECUTION);
  }

  @org.junit.jupiter.api.Test
  void aVersionFourLedgerMigratesInPlaceTakesEvaluationsAndStillVerifies() throws Exception {
    Path db = dir.resolve("state.db");
    Path key = dir.resolve("ledger-key");
    LedgerOptions options = Fixtures.options().toBuilder().keyFile(key).build();
    // Built by this code, then taken back to exactly what version 4 wrote: its tables, and user_version 4.
    try (SqliteLedger ledger = SqliteLedger.open(db, options)) {
      ledger.record(Fixtures.completed(List.of("ls"), 0, ""));
    }
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      s.execute("DROP TABLE evaluations");
      s.execute("PRAGMA user_version = 4");
    }
    assertThat(catchCode(() -> LedgerReader.open(db, options))).isEqualTo("LEDGER_SCHEMA_OLD");
    String before = SqliteLedgerTest.dump(db);

    try (SqliteLedger ledger = SqliteLedger.open(db, options)) {
      assertThat(ledger.recordEvaluation(dev.capability.kernel.api.store.EvaluationRecord.of(
          EvaluationRecordsTest.report("evaluation-1", true)))).isEqualTo(2);
    }

    assertThat(SqliteLedgerTest.dump(db)).isEqualTo(before);
    LedgerReader reader = LedgerReader.open(db, options);
    LedgerVerification v = reader.verify(true);
    assertThat(v.intact()).as(v.toString()).isTrue();
    assertThat(reader.list(LedgerQuery.latest(10))).extracting(EntrySummary::kind)
        .containsExactly(RecordKind.EVALUATION, RecordKind.EXECUTION);
  }

  private static String catchCode(Runnable action) {
    try {
      action.run();
    } catch (LedgerException e) {
      return e.code();
    }
    throw new AssertionError("expected a LedgerException");
  }

  private String keyId() throws Exception {
    byte[] der = ExportTest.publicKey(dir.resolve("ledger-key.pub")).getEncoded();
    return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(der));
  }
}
