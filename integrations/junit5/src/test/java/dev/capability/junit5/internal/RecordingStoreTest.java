package dev.capability.junit5.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.junit5.CapabilitySandbox;
import dev.capability.junit5.SandboxRepository;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.ledger.EntrySummary;
import dev.capability.ledger.LedgerOptions;
import dev.capability.ledger.LedgerQuery;
import dev.capability.ledger.RecordKind;
import dev.capability.ledger.SqliteLedger;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The capability runtime reports its launches as {@link ExecutionRecord}s, the attestation in
 * JSON form: the store reads them back into the attestation, so a runtime launch that wrote
 * outside its scope fails the test as a kernel execution does, and it lands in the ledger.
 */
class RecordingStoreTest {
  @TempDir Path ledgerDirectory;

  @Test
  @CapabilitySandbox(policy = "policies/touch-src.json", failOnWriteViolations = false)
  void aLaunchRecordedByTheRuntimeCountsForTheWriteScopeCheck(CommandKernel kernel, @SandboxRepository Path repository) {
    ExecutionResult violating = kernel.execute(ExecutionRequest.argv("touch", "src/notes.md").repository(repository).build());
    try (SqliteLedger ledger = SqliteLedger.open(ledgerDirectory.resolve("ledger.db"), LedgerOptions.defaults())) {
      RecordingStore store = new RecordingStore(ledger);

      store.recordExecution(ExecutionRecord.of(violating.attestation()));

      assertThat(store.executions()).containsExactly(violating.attestation());
      assertThat(WriteScopeViolations.message(store.executions())).hasValueSatisfying(message -> assertThat(message)
          .contains("touch src/notes.md").contains("src/notes.md (CREATED): layer operator"));
      assertThat(ledger.reader().list(LedgerQuery.latest(10))).extracting(EntrySummary::kind).containsExactly(RecordKind.EXECUTION);
    }
  }

  @Test
  @CapabilitySandbox(policy = "policies/touch-src.json")
  void anExecutionWithinTheScopeGivesNoMessage(CommandKernel kernel, @SandboxRepository Path repository) {
    ExecutionResult inScope = kernel.execute(ExecutionRequest.argv("touch", "src/allowed.txt").repository(repository).build());

    assertThat(WriteScopeViolations.message(List.of(inScope.attestation()))).isEmpty();
  }
}
