package dev.capability.ledger;

import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.store.ApprovalRecord;
import dev.capability.kernel.api.store.AssumptionRecord;
import dev.capability.kernel.api.store.AssumptionStore;
import dev.capability.kernel.api.store.CapabilityEvidenceStore;
import dev.capability.kernel.api.store.ContractRecord;
import dev.capability.kernel.api.store.CorrectionRecord;
import dev.capability.kernel.api.store.EvaluationRecord;
import dev.capability.kernel.api.store.EvaluationStore;
import dev.capability.kernel.api.store.DecisionRecord;
import dev.capability.kernel.api.store.DecisionStore;
import dev.capability.kernel.api.store.EvidenceStore;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.PhaseRecord;
import dev.capability.kernel.api.store.PlanRecord;
import dev.capability.kernel.api.store.ReceiptRecord;
import dev.capability.kernel.api.store.Stored;
import dev.capability.kernel.api.store.WorkPlanRecord;
import dev.capability.kernel.api.store.WorkPlanStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The ledger of a repository ({@code <repository>/.capability/state.db}) as the store the kernel,
 * the capability runtime and the work plans record into, opened with the first record. So a
 * kernel's {@code execute} opens it only after the command ended (nothing the ledger writes falls
 * inside the command's audit window), a command that records nothing (refused before planning,
 * say) leaves no ledger behind, and reading a contract, plan or assumption of a repository without
 * a ledger finds none rather than creating one. A host may extend it to give it the shape of its
 * own store interface (the CLI does, for the MCP server's).
 */
public class DeferredLedger
    implements EvidenceStore, DecisionStore, CapabilityEvidenceStore, WorkPlanStore, AssumptionStore, EvaluationStore, AutoCloseable {
  private final Path repository;
  private final LedgerOptions options;
  private @Nullable SqliteLedger opened;

  /** The ledger of {@code repository} with {@code options}, not opened yet. */
  public DeferredLedger(Path repository, LedgerOptions options) {
    this.repository = repository;
    this.options = options;
  }

  private synchronized SqliteLedger ledger() {
    if (opened == null) {
      opened = SqliteLedger.forRepository(repository, options);
    }
    return opened;
  }

  /** The database file, once something was recorded. */
  public synchronized Optional<Path> databaseFile() {
    return Optional.ofNullable(opened).map(SqliteLedger::databaseFile);
  }

  @Override
  public void record(ExecutionResult result) {
    ledger().record(result);
  }

  @Override
  public void record(DecisionRecord decision) {
    ledger().record(decision);
  }

  @Override
  public long recordPlan(PlanRecord plan) {
    return ledger().recordPlan(plan);
  }

  @Override
  public long recordApproval(ApprovalRecord approval) {
    return ledger().recordApproval(approval);
  }

  @Override
  public long recordExecution(ExecutionRecord execution) {
    return ledger().recordExecution(execution);
  }

  @Override
  public long recordReceipt(ReceiptRecord receipt) {
    return ledger().recordReceipt(receipt);
  }

  @Override
  public long recordContract(ContractRecord contract) {
    return ledger().recordContract(contract);
  }

  @Override
  public long recordWorkPlan(WorkPlanRecord revision) {
    return ledger().recordWorkPlan(revision);
  }

  @Override
  public long recordPhase(PhaseRecord phase) {
    return ledger().recordPhase(phase);
  }

  @Override
  public long recordAssumption(AssumptionRecord assumption) {
    return ledger().recordAssumption(assumption);
  }

  @Override
  public long recordCorrection(CorrectionRecord correction) {
    return ledger().recordCorrection(correction);
  }

  @Override
  public long recordEvaluation(EvaluationRecord evaluation) {
    return ledger().recordEvaluation(evaluation);
  }

  /**
   * Whether there is anything to read: a repository with no ledger has no contract, plan or
   * assumption, and reading must not create one (a command that records nothing leaves none).
   */
  private synchronized boolean readable() {
    return opened != null || Files.exists(SqliteLedger.databaseFile(repository));
  }

  @Override
  public Optional<Stored<ContractRecord>> currentContract() {
    return readable() ? ledger().currentContract() : Optional.empty();
  }

  @Override
  public List<Stored<WorkPlanRecord>> workPlanRevisions() {
    return readable() ? ledger().workPlanRevisions() : List.of();
  }

  @Override
  public List<Stored<PhaseRecord>> phaseRecords(String workPlanId) {
    return readable() ? ledger().phaseRecords(workPlanId) : List.of();
  }

  @Override
  public List<Stored<AssumptionRecord>> assumptions() {
    return readable() ? ledger().assumptions() : List.of();
  }

  @Override
  public List<Stored<CorrectionRecord>> corrections(String assumptionId) {
    return readable() ? ledger().corrections(assumptionId) : List.of();
  }

  /** Closes the ledger, when it was opened: its final checkpoint is written now. */
  @Override
  public synchronized void close() {
    if (opened != null) {
      opened.close();
    }
  }
}
