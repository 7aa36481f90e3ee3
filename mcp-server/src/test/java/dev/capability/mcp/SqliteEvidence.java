package dev.capability.mcp;

import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.store.ApprovalRecord;
import dev.capability.kernel.api.store.AssumptionRecord;
import dev.capability.kernel.api.store.ContractRecord;
import dev.capability.kernel.api.store.CorrectionRecord;
import dev.capability.kernel.api.store.PhaseRecord;
import dev.capability.kernel.api.store.Stored;
import dev.capability.kernel.api.store.WorkPlanRecord;
import dev.capability.kernel.api.store.DecisionRecord;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.PlanRecord;
import dev.capability.kernel.api.store.ReceiptRecord;
import dev.capability.ledger.EntrySummary;
import dev.capability.ledger.LedgerQuery;
import dev.capability.ledger.LedgerReader;
import dev.capability.ledger.LedgerVerification;
import dev.capability.ledger.SqliteLedger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** The SQLite ledger as the server's evidence and work-plan store, opened with the first record as the CLI does. */
final class SqliteEvidence implements EvidenceAccess {
  @Override
  public Store open(Path repository) {
    return openPlans(repository);
  }

  @Override
  public boolean keepsWorkPlans() {
    return true;
  }

  @Override
  public PlanStore openPlans(Path repository) {
    return new PlanStore() {
      private SqliteLedger ledger;

      private synchronized SqliteLedger ledger() {
        if (ledger == null) {
          ledger = SqliteLedger.forRepository(repository);
        }
        return ledger;
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

      private boolean readable() {
        return ledger != null || Files.exists(SqliteLedger.databaseFile(repository));
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

      @Override
      public synchronized void close() {
        if (ledger != null) {
          ledger.close();
        }
      }
    };
  }

  @Override
  public List<Map<String, @Nullable Object>> list(Path repository, int limit) {
    return LedgerReader.forRepository(repository).list(LedgerQuery.latest(limit)).stream().map(SqliteEvidence::summary).toList();
  }

  private static Map<String, @Nullable Object> summary(EntrySummary e) {
    Map<String, @Nullable Object> m = new LinkedHashMap<>();
    m.put("seq", e.sequence());
    m.put("kind", e.kind().id());
    m.put("status", e.status());
    return m;
  }

  @Override
  public Optional<Map<String, @Nullable Object>> show(Path repository, long sequence) {
    return LedgerReader.forRepository(repository).show(sequence).map(e -> {
      Map<String, @Nullable Object> m = new LinkedHashMap<>();
      m.put("seq", e.sequence());
      m.put("kind", e.kind().id());
      m.put("body", e.body());
      return m;
    });
  }

  @Override
  public Map<String, @Nullable Object> verify(Path repository) {
    LedgerVerification v = LedgerReader.forRepository(repository).verify();
    Map<String, @Nullable Object> m = new LinkedHashMap<>();
    m.put("status", v.status().name());
    m.put("records", v.records());
    return m;
  }
}
