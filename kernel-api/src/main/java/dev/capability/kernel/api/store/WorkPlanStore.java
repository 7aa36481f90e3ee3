package dev.capability.kernel.api.store;

import java.util.List;
import java.util.Optional;

/**
 * Where a work plan's evidence lives: the project contract, every revision of the work plan, the
 * kernel's launches that verified a phase, and what each verification and completion concluded.
 * Nothing is updated in place: a new contract or plan revision is a new record, and the current
 * one is the last recorded.
 *
 * <p>Each {@code record...} method stores what it is given durably before returning and returns
 * the record's sequence number in the store (from 1, increasing). A store that fails throws; the
 * work-plan layer then stops and reports the failure, and nothing later in that step is recorded.
 * Reads return what was recorded, in the order it was recorded.
 */
public interface WorkPlanStore {

  /** Records a new revision of the project contract. */
  long recordContract(ContractRecord contract);

  /** Records a new revision of the work plan (the first save or an amendment). */
  long recordWorkPlan(WorkPlanRecord revision);

  /** Records one launch made while verifying a phase; phase records name it by the returned sequence. */
  long recordExecution(ExecutionRecord execution);

  /** Records what a step of a phase concluded (a verification, the critic's verdict, a completion). */
  long recordPhase(PhaseRecord phase);

  /** The contract recorded last, if any. */
  Optional<Stored<ContractRecord>> currentContract();

  /** Every revision of every work plan, oldest first. */
  List<Stored<WorkPlanRecord>> workPlanRevisions();

  /** Every phase record of the work plan {@code workPlanId}, oldest first. */
  List<Stored<PhaseRecord>> phaseRecords(String workPlanId);
}
