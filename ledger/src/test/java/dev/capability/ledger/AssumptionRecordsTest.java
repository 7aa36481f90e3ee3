package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.store.AssumptionRecord;
import dev.capability.kernel.api.store.AssumptionStore;
import dev.capability.kernel.api.store.CorrectionRecord;
import dev.capability.kernel.api.store.CorrectionVerificationRecord;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.InvalidationRecord;
import dev.capability.kernel.api.store.OutcomeRecord;
import dev.capability.kernel.api.store.ScopeExpansionRecord;
import dev.capability.kernel.api.store.Stored;
import dev.capability.ledger.LedgerVerification.Status;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Assumptions and the steps of their corrections in a real ledger: links of the one chain, read back as recorded. */
class AssumptionRecordsTest {
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

  static AssumptionRecord assumption(String id) {
    return new AssumptionRecord(id, "wp", "impl", Map.of("statement", "Calc adds ints", "confidence", 0.75,
        "links", Map.of("files", List.of("src/main/java/Calc.java"), "assumptions", List.of())));
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
  void assumptionsAndEveryStepOfACorrectionAreChainedAndReadBackAsRecorded() {
    try (SqliteLedger ledger = open()) {
      AssumptionStore store = ledger;
      assertThat(store.recordAssumption(assumption("a1"))).isEqualTo(1);
      assertThat(store.recordAssumption(assumption("a2"))).isEqualTo(2);
      long exec = ledger.recordExecution(ExecutionRecord.of(Fixtures.completed(List.of("ls"), 0, "").attestation()));
      InvalidationRecord invalidation = new InvalidationRecord("a1", "Calc must add longs", List.of("src/main/java/Calc.java"),
          Map.of("maxDepth", 4, "boundReached", false));
      ScopeExpansionRecord expansion = new ScopeExpansionRecord("a1", List.of("src/test/**"), "the test asserts the int overflow");
      CorrectionVerificationRecord verification = new CorrectionVerificationRecord("a1", true, List.of(exec), Map.of("violations", List.of()));
      assertThat(store.recordCorrection(invalidation)).isEqualTo(4);
      assertThat(store.recordCorrection(expansion)).isEqualTo(5);
      assertThat(store.recordCorrection(verification)).isEqualTo(6);
      OutcomeRecord outcome = new OutcomeRecord("a1", true, Optional.of(6L), "fixed");
      assertThat(store.recordCorrection(outcome)).isEqualTo(7);
      store.recordCorrection(new OutcomeRecord("a2", false, Optional.empty(), "not worth it"));

      assertThat(store.assumptions()).extracting(Stored::record).containsExactly(assumption("a1"), assumption("a2"));
      assertThat(store.assumptions()).extracting(Stored::sequence).containsExactly(1L, 2L);
      List<Stored<CorrectionRecord>> corrections = store.corrections("a1");
      assertThat(corrections).extracting(Stored::record).containsExactly(invalidation, expansion, verification, outcome);
      assertThat(corrections).extracting(Stored::sequence).containsExactly(4L, 5L, 6L, 7L);
      assertThat(corrections.get(0).recordedAt()).isEqualTo(T0);
      assertThat(store.corrections("a2")).extracting(s -> s.record().event()).containsExactly("ABANDONED");
      assertThat(store.corrections("unknown")).isEmpty();
    }
    assertThat(reader().corrections("a1")).hasSize(4);
    assertThat(reader().list(LedgerQuery.latest(10))).filteredOn(e -> e.kind() == RecordKind.CORRECTION)
        .extracting(EntrySummary::status).containsExactly("ABANDONED", "RESOLVED", "VERIFIED", "SCOPE_EXPANDED", "INVALIDATED");
    LedgerVerification v = reader().verify();
    assertThat(v.intact()).as(v.toString()).isTrue();
    assertThat(v.records()).isEqualTo(8);
  }

  @Test
  void anAssumptionIdIsNeverReplacedAndACorrectionNeedsARecordedAssumption() {
    try (SqliteLedger ledger = open()) {
      ledger.recordAssumption(assumption("a1"));
      assertThat(code(() -> ledger.recordAssumption(assumption("a1")))).isEqualTo(LedgerCodes.LEDGER_RECORD_CONFLICT);
      assertThat(code(() -> ledger.recordCorrection(new OutcomeRecord("ghost", false, Optional.empty(), "no"))))
          .isEqualTo(LedgerCodes.LEDGER_RECORD_INVALID);
      assertThat(code(() -> ledger.recordCorrection(new CorrectionVerificationRecord("a1", false, List.of(1L), Map.of()))))
          .as("sequence 1 is an assumption, not an execution").isEqualTo(LedgerCodes.LEDGER_RECORD_INVALID);
      assertThat(ledger.assumptions()).hasSize(1);
    }
    assertThat(reader().verify().records()).isEqualTo(1);
  }

  @Test
  void aBlankJustificationIsNoExpansion() {
    assertThatThrownBy(() -> new ScopeExpansionRecord("a1", List.of("src/**"), " \t\n")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ScopeExpansionRecord("a1", List.of("src/**"), "")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new OutcomeRecord("a1", true, Optional.empty(), "")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anEditedCorrectionBreaksTheChainAndIsRefusedWhenRead() throws Exception {
    try (SqliteLedger ledger = open()) {
      ledger.recordAssumption(assumption("a1"));
      ledger.recordCorrection(new InvalidationRecord("a1", "wrong", List.of("src/main/java/Calc.java"), Map.of()));
    }
    try (Connection c = Fixtures.raw(db()); Statement s = c.createStatement()) {
      assertThat(s.executeUpdate("UPDATE corrections SET body = replace(body, 'src/main/java/Calc.java', 'src/main/java/Other.java') WHERE seq = 2"))
          .isEqualTo(1);
    }
    assertThat(reader().verify().status()).isEqualTo(Status.CHAIN_BROKEN);
    assertThatThrownBy(() -> reader().corrections("a1")).isInstanceOf(LedgerException.class)
        .hasMessageContaining("record 2 (correction) does not match its hash")
        .extracting(e -> ((LedgerException) e).code()).isEqualTo(LedgerCodes.LEDGER_CORRUPT);
    assertThat(reader().assumptions()).as("the untouched assumption still reads").hasSize(1);
  }
}
