package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.store.EvaluationRecord;
import dev.capability.kernel.api.store.EvaluationStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Evaluation records in a real SQLite ledger: what they must hold, how they are listed, and that the chain covers them. */
class EvaluationRecordsTest {
  @TempDir Path dir;

  /** A body shaped as the evaluator's report, cut down to what the ledger looks at and a cell. */
  static Map<String, Object> report(String evaluationId, boolean allPassed) {
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("version", 1);
    report.put("evaluationId", evaluationId);
    report.put("configSha256", "sha256:" + "ab".repeat(32));
    report.put("allPassed", allPassed);
    report.put("candidates", List.of(Map.of("name", "main", "commit", "0".repeat(40),
        "results", List.of(Map.of("command", "test", "outcome", allPassed ? "PASSED" : "FAILED")))));
    return report;
  }

  @Test
  void evaluationsAreChainedListedByOutcomeAndReadBackAsRecorded() throws Exception {
    Path db = dir.resolve("state.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      EvaluationStore store = ledger;
      ledger.record(Fixtures.completed(List.of("ls"), 0, ""));
      assertThat(store.recordEvaluation(EvaluationRecord.of(report("evaluation-1", true)))).isEqualTo(2);
      assertThat(store.recordEvaluation(EvaluationRecord.of(report("evaluation-2", false)))).isEqualTo(3);
    }
    LedgerReader reader = LedgerReader.open(db, Fixtures.options());

    LedgerVerification verification = reader.verify();
    assertThat(verification.intact()).as(verification.toString()).isTrue();
    assertThat(verification.records()).isEqualTo(3);
    assertThat(reader.list(LedgerQuery.latest(10).kind(RecordKind.EVALUATION)))
        .extracting(EntrySummary::sequence, EntrySummary::status)
        .containsExactly(Tuple.tuple(3L, "FAILED"), Tuple.tuple(2L, "PASSED"));
    LedgerEntry shown = reader.show(3).orElseThrow();
    assertThat(shown.kind()).isEqualTo(RecordKind.EVALUATION);
    assertThat(shown.hashMatches()).isTrue();
    assertThat(shown.body()).isEqualTo(report("evaluation-2", false));
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT evaluation_id, all_passed FROM evaluations ORDER BY seq")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1) + " " + rs.getInt(2)).isEqualTo("evaluation-1 1");
    }
  }

  @Test
  void anEvaluationTurnedFromFailedToPassedInTheDatabaseBreaksTheChain() throws Exception {
    Path db = dir.resolve("state.db");
    try (SqliteLedger ledger = SqliteLedger.open(db, Fixtures.options())) {
      ledger.recordEvaluation(EvaluationRecord.of(report("evaluation-1", false)));
    }
    try (Connection c = Fixtures.raw(db); Statement s = c.createStatement()) {
      assertThat(s.executeUpdate("UPDATE evaluations SET body = replace(replace(body, '\"allPassed\":false', '\"allPassed\":true'),"
          + " 'FAILED', 'PASSED')")).isEqualTo(1);
    }

    assertThat(LedgerReader.open(db, Fixtures.options()).verify().intact()).isFalse();
  }

  @Test
  void anEvaluationRecordWithoutItsOutcomeIsRefused() {
    Map<String, Object> report = report("evaluation-1", true);
    report.remove("allPassed");

    assertThatThrownBy(() -> LedgerRecord.of(RecordKind.EVALUATION, report))
        .isInstanceOfSatisfying(LedgerException.class, e -> assertThat(e.code()).isEqualTo(LedgerCodes.LEDGER_RECORD_INVALID))
        .hasMessageContaining("allPassed");
  }
}
