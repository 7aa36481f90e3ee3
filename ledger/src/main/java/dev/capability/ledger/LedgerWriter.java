package dev.capability.ledger;

import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.store.AcquisitionRecord;
import dev.capability.kernel.api.store.AcquisitionStore;
import dev.capability.kernel.api.store.EvaluationRecord;
import dev.capability.kernel.api.store.EvaluationStore;
import dev.capability.kernel.api.store.ApprovalRecord;
import dev.capability.kernel.api.store.AssumptionRecord;
import dev.capability.kernel.api.store.AssumptionStore;
import dev.capability.kernel.api.store.CorrectionRecord;
import dev.capability.kernel.api.store.CapabilityEvidenceStore;
import dev.capability.kernel.api.store.ContractRecord;
import dev.capability.kernel.api.store.DecisionRecord;
import dev.capability.kernel.api.store.DecisionStore;
import dev.capability.kernel.api.store.EvidenceStore;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.PhaseRecord;
import dev.capability.kernel.api.store.PlanRecord;
import dev.capability.kernel.api.store.ReceiptRecord;
import dev.capability.kernel.api.store.WorkPlanRecord;
import dev.capability.kernel.api.store.WorkPlanStore;

/**
 * A store of every kind of evidence ({@link EvidenceStore}, {@link DecisionStore}, {@link
 * CapabilityEvidenceStore}, {@link AcquisitionStore}, {@link WorkPlanStore}) that takes records of
 * every kind and says where each landed. {@link SqliteLedger} is one; {@link
 * RedactingEvidenceStore} wraps one.
 *
 * <p>A work plan's records land as {@link RecordKind#CONTRACT}, {@link RecordKind#WORK_PLAN} and
 * {@link RecordKind#PHASE} records (see {@link LedgerRecord}); a revision number already recorded
 * for its work plan is refused with {@code LEDGER_RECORD_CONFLICT}, and nothing is appended.
 * Assumptions land as {@link RecordKind#ASSUMPTION} records and the steps of their corrections as
 * {@link RecordKind#CORRECTION} records; an assumption id already recorded is refused with {@code
 * LEDGER_RECORD_CONFLICT}, a correction of an assumption not recorded with {@code
 * LEDGER_RECORD_INVALID}. An evaluator's reports land as {@link RecordKind#EVALUATION} records.
 */
public interface LedgerWriter extends EvidenceStore, DecisionStore, CapabilityEvidenceStore, AcquisitionStore, WorkPlanStore,
    AssumptionStore, EvaluationStore {

  /** Appends one record and returns once it is durably committed (see {@link Durability}). */
  Appended append(LedgerRecord record);

  /** Records an execution or denial: its attestation, and nothing else of the result. */
  @Override
  default void record(ExecutionResult result) {
    append(LedgerRecord.execution(result));
  }

  @Override
  default void record(DecisionRecord decision) {
    append(LedgerRecord.decision(decision));
  }

  @Override
  default void record(AcquisitionRecord acquisition) {
    append(LedgerRecord.acquisition(acquisition));
  }

  @Override
  default long recordEvaluation(EvaluationRecord evaluation) {
    return append(LedgerRecord.evaluation(evaluation)).sequence();
  }

  @Override
  default long recordPlan(PlanRecord plan) {
    return append(LedgerRecord.plan(plan)).sequence();
  }

  @Override
  default long recordApproval(ApprovalRecord approval) {
    return append(LedgerRecord.approval(approval)).sequence();
  }

  @Override
  default long recordExecution(ExecutionRecord execution) {
    return append(LedgerRecord.execution(execution)).sequence();
  }

  @Override
  default long recordReceipt(ReceiptRecord receipt) {
    return append(LedgerRecord.receipt(receipt)).sequence();
  }

  @Override
  default long recordContract(ContractRecord contract) {
    return append(LedgerRecord.contract(contract)).sequence();
  }

  @Override
  default long recordWorkPlan(WorkPlanRecord revision) {
    return append(LedgerRecord.workPlan(revision)).sequence();
  }

  @Override
  default long recordPhase(PhaseRecord phase) {
    return append(LedgerRecord.phase(phase)).sequence();
  }

  @Override
  default long recordAssumption(AssumptionRecord assumption) {
    return append(LedgerRecord.assumption(assumption)).sequence();
  }

  @Override
  default long recordCorrection(CorrectionRecord correction) {
    return append(LedgerRecord.correction(correction)).sequence();
  }
}
