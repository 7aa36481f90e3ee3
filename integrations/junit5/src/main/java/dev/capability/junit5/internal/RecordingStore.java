package dev.capability.junit5.internal;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.kernel.api.store.ApprovalRecord;
import dev.capability.kernel.api.store.CapabilityEvidenceStore;
import dev.capability.kernel.api.store.EvidenceStore;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.PlanRecord;
import dev.capability.kernel.api.store.ReceiptRecord;
import dev.capability.ledger.LedgerWriter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The evidence store of a sandbox's kernel and runtime: every record goes into the test's ledger,
 * and the attestation of every execution is kept for the write-scope check after the test.
 */
final class RecordingStore implements EvidenceStore, CapabilityEvidenceStore {
  private final LedgerWriter ledger;
  private final List<Attestation> executions = new CopyOnWriteArrayList<>();

  RecordingStore(LedgerWriter ledger) {
    this.ledger = ledger;
  }

  @Override
  public void record(ExecutionResult result) {
    executions.add(result.attestation());
    ledger.record(result);
  }

  @Override
  public long recordPlan(PlanRecord plan) {
    return ledger.recordPlan(plan);
  }

  @Override
  public long recordApproval(ApprovalRecord approval) {
    return ledger.recordApproval(approval);
  }

  @Override
  public long recordExecution(ExecutionRecord execution) {
    // The runtime's launches carry the attestation in its JSON form; read back, it is the kernel's.
    executions.add(AttestationJson.fromJson(CanonicalJson.serialize(execution.attestation())));
    return ledger.recordExecution(execution);
  }

  @Override
  public long recordReceipt(ReceiptRecord receipt) {
    return ledger.recordReceipt(receipt);
  }

  /** The attestations of every execution so far, in order. */
  List<Attestation> executions() {
    return List.copyOf(executions);
  }
}
