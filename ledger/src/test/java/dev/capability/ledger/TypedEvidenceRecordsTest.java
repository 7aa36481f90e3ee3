package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.store.ApprovalRecord;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.PlanRecord;
import dev.capability.kernel.api.store.ReceiptRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ledger as a CapabilityEvidenceStore: typed records land with their ids and links, and bad links are refused. */
class TypedEvidenceRecordsTest {
  @TempDir Path repo;

  private static final String FINGERPRINT = Fixtures.fingerprint("p");

  @Test
  void aReceiptNamesItsExecutionsAndItsPlanAndTheChainVerifies() {
    long plan;
    long approval;
    long execution;
    long receipt;
    try (SqliteLedger ledger = SqliteLedger.forRepository(repo)) {
      plan = ledger.recordPlan(new PlanRecord("plan-1", FINGERPRINT, "hello@1.0.0", Map.of("input", Map.of())));
      approval = ledger.recordApproval(new ApprovalRecord("approval-1", "plan-1", FINGERPRINT, true, "a person", "approved",
          List.of("filesystem.write(notes)")));
      execution = ledger.recordExecution(new ExecutionRecord(
          dev.capability.kernel.api.AttestationJson.toMap(Fixtures.completed(List.of("java"), 0, "").attestation())));
      receipt = ledger.recordReceipt(new ReceiptRecord("receipt-1", "plan-1", FINGERPRINT, "SUCCEEDED", List.of(execution),
          Map.of("code", "SUCCEEDED")));
    }

    assertThat(List.of(plan, approval, execution, receipt)).containsExactly(1L, 2L, 3L, 4L);
    LedgerReader reader = LedgerReader.forRepository(repo);
    assertThat(reader.show(1).orElseThrow().body()).containsEntry("planId", "plan-1").containsEntry("capability", "hello@1.0.0");
    assertThat(reader.show(2).orElseThrow().body()).containsEntry("approvalId", "approval-1").containsEntry("planId", "plan-1")
        .containsEntry("approver", "a person").containsEntry("effects", List.of("filesystem.write(notes)"));
    assertThat(reader.show(3).orElseThrow().kind()).isEqualTo(RecordKind.EXECUTION);
    Map<String, Object> stored = reader.show(4).orElseThrow().body();
    assertThat(stored).containsEntry("receiptId", "receipt-1").containsEntry("planId", "plan-1").containsEntry("code", "SUCCEEDED")
        .containsEntry("fingerprint", FINGERPRINT).containsEntry("status", "SUCCEEDED");
    assertThat(((Number) stored.get("executionSequence")).longValue()).isEqualTo(3L);
    assertThat(reader.list(LedgerQuery.latest(10).kind(RecordKind.RECEIPT))).singleElement()
        .satisfies(summary -> assertThat(summary.planFingerprint()).isEqualTo(FINGERPRINT));
    assertThat(reader.verify().intact()).isTrue();
  }

  @Test
  void aReceiptNamingARecordThatIsNotAnExecutionIsRefusedAndLeavesNoGap() {
    try (SqliteLedger ledger = SqliteLedger.forRepository(repo)) {
      long plan = ledger.recordPlan(new PlanRecord("plan-1", FINGERPRINT, "hello@1.0.0", Map.of()));
      long execution = ledger.recordExecution(ExecutionRecord.of(Fixtures.completed(List.of("java"), 0, "").attestation()));

      assertThatThrownBy(() -> ledger.recordReceipt(
          new ReceiptRecord("receipt-1", "plan-1", FINGERPRINT, "SUCCEEDED", List.of(execution, plan), Map.of())))
          .isInstanceOfSatisfying(LedgerException.class, e -> assertThat(e.code()).isEqualTo("LEDGER_RECORD_INVALID"))
          .hasMessageContaining("execution " + plan);
      assertThat(ledger.recordReceipt(new ReceiptRecord("receipt-1", "plan-1", FINGERPRINT, "SUCCEEDED", List.of(execution), Map.of())))
          .isEqualTo(3L);
    }
    assertThat(LedgerReader.forRepository(repo).verify().intact()).isTrue();
  }

  @Test
  void anApprovalOrReceiptMustNameAPlanRecordWithItsIdAndFingerprint() {
    try (SqliteLedger ledger = SqliteLedger.forRepository(repo)) {
      ledger.recordPlan(new PlanRecord("plan-1", FINGERPRINT, "hello@1.0.0", Map.of()));
      ledger.recordPlan(new PlanRecord("plan-2", Fixtures.fingerprint("other"), "hello@1.0.0", Map.of()));

      assertThatThrownBy(() -> ledger.recordApproval(new ApprovalRecord("a", "plan-2", FINGERPRINT, true, "me", "ok", List.of())))
          .isInstanceOfSatisfying(LedgerException.class, e -> assertThat(e.code()).isEqualTo("LEDGER_RECORD_INVALID"))
          .hasMessageContaining("plan-2");
      assertThatThrownBy(() -> ledger.recordReceipt(new ReceiptRecord("r", "plan-9", FINGERPRINT, "REFUSED", List.of(), Map.of())))
          .isInstanceOfSatisfying(LedgerException.class, e -> assertThat(e.code()).isEqualTo("LEDGER_RECORD_INVALID"));
      assertThat(ledger.recordApproval(new ApprovalRecord("a", "plan-1", FINGERPRINT, false, "me", "no", List.of()))).isEqualTo(3L);
    }
  }
}
