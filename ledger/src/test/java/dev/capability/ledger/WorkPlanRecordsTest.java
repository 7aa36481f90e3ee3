package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.store.ContractRecord;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.PhaseRecord;
import dev.capability.kernel.api.store.Stored;
import dev.capability.kernel.api.store.WorkPlanRecord;
import dev.capability.kernel.api.store.WorkPlanStore;
import dev.capability.ledger.LedgerVerification.Status;
import dev.capability.ledger.internal.ChainHash;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A work plan's contract, revisions and phase records in a real ledger: links of the one chain, read back as recorded. */
class WorkPlanRecordsTest {
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00.123456Z");

  @TempDir Path dir;

  private Path db() {
    return dir.resolve("state.db");
  }

  private SqliteLedger open() {
    return SqliteLedger.open(db(), Fixtures.options().toBuilder().clock(Clock.fixed(T0, ZoneOffset.UTC)).build());
  }

  private LedgerReader reader() {
    return LedgerReader.open(db(), Fixtures.options());
  }

  static ContractRecord contract(String writeScope) {
    return new ContractRecord("sha256:" + hex(writeScope), Map.of("writeScopes", List.of(writeScope), "assurance", "standard"));
  }

  static WorkPlanRecord revision(String id, int revision) {
    return new WorkPlanRecord(id, revision, "sha256:" + hex(id + revision), Map.of("plan",
        Map.of("phases", List.of(Map.of("id", "build", "acceptance", List.of(List.of("mvn", "-q", "test"))))),
        "warnings", List.of(), "revision", revision));
  }

  static PhaseRecord phase(String id, int revision, String event, List<Long> executions) {
    return new PhaseRecord(id, revision, "build", event, executions, Map.of("outcome", event, "failures",
        List.of(Map.of("command", List.of("mvn", "-q", "test"), "exitStatus", 1, "fingerprint", "f-1"))));
  }

  private static String code(Runnable action) {
    try {
      action.run();
    } catch (LedgerException e) {
      return e.code();
    }
    throw new AssertionError("expected a LedgerException");
  }

  @Test
  void contractsRevisionsPhasesAndExecutionsAreChainedAndReadBackInOrderWithTheirSequences() {
    long c1;
    long r1;
    long x1;
    long p1;
    long r2;
    long c2;
    long p2;
    try (SqliteLedger ledger = open()) {
      WorkPlanStore store = ledger;
      c1 = store.recordContract(contract("src/**"));
      r1 = store.recordWorkPlan(revision("wp", 1));
      x1 = store.recordExecution(ExecutionRecord.of(Fixtures.completed(List.of("mvn", "-q", "test"), 1, "").attestation()));
      p1 = store.recordPhase(phase("wp", 1, "VERIFICATION_FAILED", List.of(x1)));
      r2 = store.recordWorkPlan(revision("wp", 2));
      store.recordWorkPlan(revision("other", 1));
      c2 = store.recordContract(contract("lib/**"));
      p2 = store.recordPhase(phase("wp", 2, "COMPLETED", List.of()));

      assertThat(List.of(c1, r1, x1, p1, r2, c2, p2)).containsExactly(1L, 2L, 3L, 4L, 5L, 7L, 8L);

      Stored<ContractRecord> current = store.currentContract().orElseThrow();
      assertThat(current.sequence()).isEqualTo(7);
      assertThat(current.recordedAt()).isEqualTo(T0);
      assertThat(current.record()).isEqualTo(contract("lib/**"));

      assertThat(store.workPlanRevisions()).extracting(Stored::sequence).containsExactly(2L, 5L, 6L);
      assertThat(store.workPlanRevisions()).extracting(Stored::record)
          .containsExactly(revision("wp", 1), revision("wp", 2), revision("other", 1));

      List<Stored<PhaseRecord>> phases = store.phaseRecords("wp");
      assertThat(phases).extracting(Stored::sequence).containsExactly(4L, 8L);
      assertThat(phases).extracting(Stored::record)
          .containsExactly(phase("wp", 1, "VERIFICATION_FAILED", List.of(3L)), phase("wp", 2, "COMPLETED", List.of()));
      assertThat(store.phaseRecords("other")).isEmpty();
      assertThat(store.phaseRecords("nonexistent")).isEmpty();
    }

    LedgerReader reader = reader();
    LedgerVerification v = reader.verify(true);
    assertThat(v.intact()).as(v.toString()).isTrue();
    assertThat(v.records()).isEqualTo(8);
    assertThat(reader.phaseRecords("wp")).extracting(Stored::sequence).containsExactly(4L, 8L);
    assertThat(reader.list(LedgerQuery.latest(10))).extracting(EntrySummary::kind).containsExactly(RecordKind.PHASE,
        RecordKind.CONTRACT, RecordKind.WORK_PLAN, RecordKind.WORK_PLAN, RecordKind.PHASE, RecordKind.EXECUTION,
        RecordKind.WORK_PLAN, RecordKind.CONTRACT);
    EntrySummary failed = reader.list(LedgerQuery.latest(10).status("VERIFICATION_FAILED")).get(0);
    assertThat(failed.sequence()).isEqualTo(4);
    assertThat(failed.workPlanId()).isEqualTo("wp");
    assertThat(failed.planRevision()).isEqualTo(1);
    assertThat(failed.phaseId()).isEqualTo("build");
    EntrySummary plan = reader.list(LedgerQuery.latest(10).kind(RecordKind.WORK_PLAN)).get(2);
    assertThat(plan.sequence()).isEqualTo(2);
    assertThat(plan.contentHash()).isEqualTo(revision("wp", 1).revisionHash());
    assertThat(reader.list(LedgerQuery.latest(1).kind(RecordKind.CONTRACT)).get(0).contentHash()).isEqualTo(contract("lib/**").contractHash());
  }

  @Test
  void aRevisionNumberAlreadyRecordedIsRefusedAndNothingIsAppended() {
    try (SqliteLedger ledger = open()) {
      ledger.recordWorkPlan(revision("wp", 1));
      ledger.recordWorkPlan(revision("wp", 2));
      WorkPlanRecord rival = new WorkPlanRecord("wp", 2, "sha256:rival", Map.of("plan", Map.of()));
      LedgerException refused = org.junit.jupiter.api.Assertions.assertThrows(LedgerException.class, () -> ledger.recordWorkPlan(rival));
      assertThat(refused.code()).isEqualTo(LedgerCodes.LEDGER_RECORD_CONFLICT);
      assertThat(refused.getMessage()).contains("revision 2").contains("'wp'");
      assertThat(ledger.workPlanRevisions()).extracting(s -> s.record().revisionHash())
          .containsExactly(revision("wp", 1).revisionHash(), revision("wp", 2).revisionHash());
      assertThat(ledger.recordWorkPlan(revision("wp", 3))).as("the next record takes the next sequence").isEqualTo(3);
    }
    LedgerVerification v = reader().verify();
    assertThat(v.intact()).as(v.toString()).isTrue();
    assertThat(v.records()).isEqualTo(3);
  }

  @Test
  void writersRacingForTheSameRevisionLandExactlyOne() throws Exception {
    int writers = 8;
    List<Future<String>> outcomes = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try (SqliteLedger ledger = open()) {
      CountDownLatch start = new CountDownLatch(1);
      for (int i = 0; i < writers; i++) {
        WorkPlanRecord mine = new WorkPlanRecord("wp", 1, "sha256:writer-" + i, Map.of());
        Callable<String> attempt = () -> {
          start.await();
          try {
            ledger.recordWorkPlan(mine);
            return "LANDED";
          } catch (LedgerException e) {
            return e.code();
          }
        };
        outcomes.add(pool.submit(attempt));
      }
      start.countDown();
      List<String> codes = new ArrayList<>();
      for (Future<String> outcome : outcomes) {
        codes.add(outcome.get());
      }
      assertThat(codes).containsOnlyOnce("LANDED");
      assertThat(codes.stream().filter(c -> !c.equals("LANDED"))).hasSize(writers - 1).containsOnly(LedgerCodes.LEDGER_RECORD_CONFLICT);
      assertThat(ledger.workPlanRevisions()).hasSize(1);
    } finally {
      pool.shutdownNow();
    }
    assertThat(reader().verify().records()).isEqualTo(1);
  }

  @Test
  void theTableItselfRefusesASecondRowForTheSameRevision() throws Exception {
    try (SqliteLedger ledger = open()) {
      ledger.recordWorkPlan(revision("wp", 1));
    }
    try (Connection c = Fixtures.raw(db()); Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.executeUpdate(
          "INSERT INTO work_plans (seq, body) VALUES (99, '{\"revision\":1,\"workPlanId\":\"wp\"}')"))
          .isInstanceOf(SQLException.class).hasMessageContaining("UNIQUE");
    }
  }

  @Test
  void revisionsAndPhaseRecordsMustReferToWhatTheLedgerHolds() {
    try (SqliteLedger ledger = open()) {
      assertThat(code(() -> ledger.recordWorkPlan(revision("wp", 2)))).isEqualTo(LedgerCodes.LEDGER_RECORD_INVALID);
      ledger.recordWorkPlan(revision("wp", 1));
      assertThat(code(() -> ledger.recordWorkPlan(revision("wp", 3)))).isEqualTo(LedgerCodes.LEDGER_RECORD_INVALID);
      assertThat(code(() -> ledger.recordPhase(phase("wp", 2, "VERIFIED", List.of())))).isEqualTo(LedgerCodes.LEDGER_RECORD_INVALID);
      assertThat(code(() -> ledger.recordPhase(phase("elsewhere", 1, "VERIFIED", List.of())))).isEqualTo(LedgerCodes.LEDGER_RECORD_INVALID);
      long contract = ledger.recordContract(contract("src/**"));
      assertThatThrownBy(() -> ledger.recordPhase(phase("wp", 1, "VERIFIED", List.of(contract))))
          .isInstanceOf(LedgerException.class).hasMessageContaining("refers to execution " + contract);
      assertThat(ledger.recordPhase(phase("wp", 1, "VERIFIED", List.of()))).isEqualTo(3);
    }
    assertThat(reader().verify().records()).isEqualTo(3);
  }

  @Test
  void bodiesWithoutTheMembersTheirTablesIndexAreRefusedBeforeAnythingIsStored() {
    Map<String, Object> phase = Map.of("workPlanId", "wp", "planRevision", 1, "phaseId", "build", "event", "VERIFIED",
        "executionSequences", List.of(), "body", Map.of());
    assertThat(LedgerRecord.of(RecordKind.PHASE, phase).body()).isEqualTo(phase);
    for (Map<String, Object> bad : List.of(
        without(phase, "body"), with(phase, "body", "text"), with(phase, "planRevision", 0), with(phase, "planRevision", "1"),
        with(phase, "planRevision", 1.5), with(phase, "planRevision", 1L << 40), without(phase, "executionSequences"),
        with(phase, "event", ""))) {
      assertThat(code(() -> LedgerRecord.of(RecordKind.PHASE, bad))).as(bad.toString()).isEqualTo(LedgerCodes.LEDGER_RECORD_INVALID);
    }
    assertThat(code(() -> LedgerRecord.of(RecordKind.WORK_PLAN, Map.of("workPlanId", "wp", "revision", 1, "revisionHash", "h"))))
        .isEqualTo(LedgerCodes.LEDGER_RECORD_INVALID);
    assertThat(code(() -> LedgerRecord.of(RecordKind.CONTRACT, Map.of("contract", Map.of()))))
        .isEqualTo(LedgerCodes.LEDGER_RECORD_INVALID);
    try (SqliteLedger ledger = open()) {
      ledger.recordWorkPlan(revision("wp", 1));
      assertThat(code(() -> ledger.append(LedgerRecord.of(RecordKind.PHASE, with(phase, "executionSequences", List.of(0))))))
          .isEqualTo(LedgerCodes.LEDGER_RECORD_INVALID);
    }
    assertThat(reader().verify().records()).isEqualTo(1);
  }

  @Test
  void anEditedPhaseRecordBreaksTheChainAndIsRefusedWhenRead() throws Exception {
    try (SqliteLedger ledger = open()) {
      ledger.recordWorkPlan(revision("wp", 1));
      ledger.recordPhase(phase("wp", 1, "VERIFICATION_FAILED", List.of()));
      ledger.recordPhase(phase("wp", 1, "VERIFIED", List.of()));
    }
    try (Connection c = Fixtures.raw(db()); Statement s = c.createStatement()) {
      int changed = s.executeUpdate("UPDATE phases SET body = replace(body, 'VERIFICATION_FAILED', 'VERIFIED') WHERE seq = 2");
      assertThat(changed).isEqualTo(1);
    }
    LedgerVerification v = reader().verify();
    assertThat(v.status()).isEqualTo(Status.CHAIN_BROKEN);
    assertThat(v.sequence()).isEqualTo(2);
    assertThat(v.message()).contains("does not match its hash");
    assertThatThrownBy(() -> reader().phaseRecords("wp")).isInstanceOf(LedgerException.class)
        .hasMessageContaining("record 2 (phase) does not match its hash")
        .extracting(e -> ((LedgerException) e).code()).isEqualTo(LedgerCodes.LEDGER_CORRUPT);
    assertThat(reader().workPlanRevisions()).as("the untouched plan revision still reads").hasSize(1);
  }

  @Test
  void aRechainedBodyThatIsNoRecordIsRefusedWithACode() throws Exception {
    try (SqliteLedger ledger = open()) {
      ledger.recordWorkPlan(revision("wp", 1));
      ledger.recordPhase(phase("wp", 1, "VERIFIED", List.of()));
      ledger.recordContract(contract("src/**"));
    }
    // An attacker who rewrites a body and its hash leaves records that are no records of their kind.
    // (SQLite itself refuses a body that is not JSON at all: the indexed columns are computed from it.)
    rewrite("phases", 2, "{\"workPlanId\":\"wp\",\"planRevision\":\"one\"}");
    assertThatThrownBy(() -> reader().phaseRecords("wp")).isInstanceOf(LedgerException.class)
        .hasMessageContaining("record 2").hasMessageContaining("planRevision")
        .extracting(e -> ((LedgerException) e).code()).isEqualTo(LedgerCodes.LEDGER_CORRUPT);
    rewrite("contracts", 3, "[\"src/**\"]");
    assertThatThrownBy(() -> reader().currentContract()).isInstanceOf(LedgerException.class)
        .hasMessageContaining("the body of record 3").hasMessageContaining("not a JSON object")
        .extracting(e -> ((LedgerException) e).code()).isEqualTo(LedgerCodes.LEDGER_CORRUPT);
  }

  @Test
  void aRowOutsideTheChainIsRefusedWhenRead() throws Exception {
    try (SqliteLedger ledger = open()) {
      ledger.recordWorkPlan(revision("wp", 1));
    }
    try (Connection c = Fixtures.raw(db()); Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO contracts (seq, body) VALUES (2, '{\"contract\":{},\"contractHash\":\"sha256:forged\"}')");
    }
    assertThat(reader().verify().status()).isEqualTo(Status.UNCHAINED_RECORD);
    assertThatThrownBy(() -> reader().currentContract()).isInstanceOf(LedgerException.class)
        .hasMessageContaining("contracts table holds a row 2 that is no contract record of the chain");
  }

  @Test
  void phaseRecordsPassThroughRedaction() throws Exception {
    Redaction redaction = Redaction.builder().secretValue("hunter2-token").build();
    try (LedgerWriter store = new RedactingEvidenceStore(open(), redaction)) {
      store.recordWorkPlan(revision("wp", 1));
      store.recordPhase(new PhaseRecord("wp", 1, "build", "VERIFICATION_FAILED", List.of(),
          Map.of("failures", List.of(Map.of("excerpt", "Authorization: hunter2-token rejected")))));
      assertThat(store.phaseRecords("wp").get(0).record().body())
          .isEqualTo(Map.of("failures", List.of(Map.of("excerpt", "Authorization: [REDACTED] rejected"))));
    }
    assertThat(SqliteLedgerTest.filesContaining(dir, "hunter2-token")).isEmpty();
    assertThat(reader().verify().intact()).isTrue();
  }

  @Test
  void aClosedLedgerRefusesReads() {
    SqliteLedger ledger = open();
    ledger.close();
    assertThat(code(ledger::currentContract)).isEqualTo(LedgerCodes.LEDGER_CLOSED);
  }

  private void rewrite(String table, long seq, String body) throws Exception {
    try (Connection c = Fixtures.raw(db())) {
      String prev;
      String kind;
      String at;
      try (PreparedStatement p = c.prepareStatement("SELECT prev_hash, kind, recorded_at FROM entries WHERE seq = ?")) {
        p.setLong(1, seq);
        try (ResultSet rs = p.executeQuery()) {
          assertThat(rs.next()).isTrue();
          prev = rs.getString(1);
          kind = rs.getString(2);
          at = rs.getString(3);
        }
      }
      try (PreparedStatement p = c.prepareStatement("UPDATE " + table + " SET body = ? WHERE seq = ?")) {
        p.setString(1, body);
        p.setLong(2, seq);
        assertThat(p.executeUpdate()).isEqualTo(1);
      }
      try (PreparedStatement p = c.prepareStatement("UPDATE entries SET hash = ? WHERE seq = ?")) {
        p.setString(1, ChainHash.hash(ChainHash.newDigest(), prev, seq, kind, at, body.getBytes(StandardCharsets.UTF_8)));
        p.setLong(2, seq);
        assertThat(p.executeUpdate()).isEqualTo(1);
      }
    }
  }

  private static Map<String, Object> with(Map<String, Object> m, String name, Object value) {
    Map<String, Object> copy = new java.util.LinkedHashMap<>(m);
    copy.put(name, value);
    return copy;
  }

  private static Map<String, Object> without(Map<String, Object> m, String name) {
    Map<String, Object> copy = new java.util.LinkedHashMap<>(m);
    copy.remove(name);
    return copy;
  }

  /** A hex digest for the test's hashes, which the ledger stores but does not check. */
  private static String hex(String s) {
    return Sha256.hex(s.getBytes(StandardCharsets.UTF_8));
  }
}
