package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.store.ContractRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A repository's ledger that opens with its first record, and not before. */
class DeferredLedgerTest {
  @TempDir Path repository;

  @Test
  void readingARepositoryWithoutALedgerFindsNothingAndCreatesNoLedger() {
    try (DeferredLedger ledger = new DeferredLedger(repository, Fixtures.options())) {
      assertThat(ledger.currentContract()).isEmpty();
      assertThat(ledger.workPlanRevisions()).isEmpty();
      assertThat(ledger.phaseRecords("any")).isEmpty();
      assertThat(ledger.assumptions()).isEmpty();
      assertThat(ledger.corrections("any")).isEmpty();
      assertThat(ledger.databaseFile()).isEmpty();
    }
    assertThat(SqliteLedger.databaseFile(repository)).doesNotExist();
    assertThat(repository.resolve(".capability")).doesNotExist();
  }

  @Test
  void theFirstRecordOpensTheLedgerAndLaterReadsSeeIt() {
    ContractRecord contract = new ContractRecord("sha256:" + "a".repeat(64), Map.of("writeScopes", List.of("src/**"), "assurance", "standard"));
    try (DeferredLedger ledger = new DeferredLedger(repository, Fixtures.options())) {
      ledger.record(Fixtures.completed(List.of("make"), 0, ""));
      assertThat(ledger.databaseFile()).contains(SqliteLedger.databaseFile(repository));
      ledger.recordContract(contract);
      assertThat(ledger.currentContract()).map(stored -> stored.record().contractHash()).contains(contract.contractHash());
    }
    try (DeferredLedger reopened = new DeferredLedger(repository, Fixtures.options())) {
      assertThat(reopened.currentContract()).map(stored -> stored.record().contractHash()).contains(contract.contractHash());
    }
    assertThat(Files.exists(SqliteLedger.databaseFile(repository))).isTrue();
    assertThat(LedgerReader.forRepository(repository).verify().intact()).isTrue();
  }
}
