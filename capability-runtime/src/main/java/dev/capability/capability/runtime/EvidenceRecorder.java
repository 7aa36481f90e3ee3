package dev.capability.capability.runtime;

import dev.capability.kernel.api.store.ApprovalRecord;
import dev.capability.kernel.api.store.CapabilityEvidenceStore;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.PlanRecord;
import dev.capability.kernel.api.store.ReceiptRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Writes one run into a {@link CapabilityEvidenceStore} as its events come: the plan, each
 * approval, each launch the kernel attested, and the receipt naming the sequence numbers of those
 * launches. The ids it gives plans, approvals and receipts are random UUIDs.
 */
final class EvidenceRecorder implements CapabilityEventListener {
  private final CapabilityEvidenceStore store;
  private final String approver;
  private final boolean redact;
  private final List<Long> executions = new ArrayList<>();
  private @Nullable String planId;
  private @Nullable String planFingerprint;

  EvidenceRecorder(CapabilityEvidenceStore store, String approver, boolean redact) {
    this.store = store;
    this.approver = approver;
    this.redact = redact;
  }

  @Override
  public void planCreated(CapabilityPlan plan) {
    planId = UUID.randomUUID().toString();
    planFingerprint = plan.fingerprint();
    store.recordPlan(new PlanRecord(planId, plan.fingerprint(), plan.capability(), plan.toJson()));
  }

  @Override
  public void approvalGiven(CapabilityPlan plan, Approval approval) {
    store.recordApproval(new ApprovalRecord(
        UUID.randomUUID().toString(),
        planId,
        plan.fingerprint(),
        approval.approved(),
        approver,
        approval.reason(),
        approval.effects().stream().map(Effect::toString).toList()));
  }

  @Override
  public void launchFinished(CapabilityRequest request, CapabilityResult result) {
    if (result.attestation().isPresent()) {
      executions.add(store.recordExecution(ExecutionRecord.of(result.attestation().get())));
    }
  }

  @Override
  public void receiptIssued(ExecutionReceipt receipt) {
    ExecutionReceipt recorded = redact ? receipt.redact() : receipt;
    store.recordReceipt(new ReceiptRecord(
        UUID.randomUUID().toString(),
        planId,
        planFingerprint,
        receipt.outcome().name(),
        executions,
        ExecutionReceipts.toJson(recorded)));
  }
}
