package dev.capability.kernel.api.store;

/**
 * Where the capability runtime records each run as it happens: the plan, the approvals it was
 * given, the kernel's launches and the receipt. Each method stores what it is given durably before
 * returning and returns the record's sequence number in the store (from 1, increasing); a receipt
 * names the sequence numbers of its run's launches, so a store must know them when it is asked to
 * record the receipt.
 *
 * <p>A store that fails throws; the runtime stops the run there (before a launch, nothing is
 * launched) and reports the failure to the host.
 */
public interface CapabilityEvidenceStore {

  /** Records the plan of a run. */
  long recordPlan(PlanRecord plan);

  /** Records an approval or refusal of a recorded plan. */
  long recordApproval(ApprovalRecord approval);

  /** Records one launch of a run. */
  long recordExecution(ExecutionRecord execution);

  /** Records a run's receipt, after its plan, approvals and launches. */
  long recordReceipt(ReceiptRecord receipt);
}
