package dev.capability.workflow;

import dev.capability.kernel.api.store.ContractRecord;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.PhaseRecord;
import dev.capability.kernel.api.store.Stored;
import dev.capability.kernel.api.store.WorkPlanRecord;
import dev.capability.kernel.api.store.WorkPlanStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A store in memory, for tests of the work-plan logic and for benchmarks that keep the ledger's
 * cost out of the comparison; the SQLite ledger is the real one.
 */
public final class InMemoryWorkPlanStore implements WorkPlanStore {
  final List<Stored<Object>> all = new ArrayList<>();

  private long add(Object record) {
    long sequence = all.size() + 1L;
    all.add(new Stored<>(sequence, Instant.EPOCH.plusSeconds(sequence), record));
    return sequence;
  }

  @Override
  public long recordContract(ContractRecord contract) {
    return add(contract);
  }

  @Override
  public long recordWorkPlan(WorkPlanRecord revision) {
    return add(revision);
  }

  @Override
  public long recordExecution(ExecutionRecord execution) {
    return add(execution);
  }

  @Override
  public long recordPhase(PhaseRecord phase) {
    return add(phase);
  }

  @Override
  public Optional<Stored<ContractRecord>> currentContract() {
    List<Stored<ContractRecord>> contracts = of(ContractRecord.class);
    return contracts.isEmpty() ? Optional.empty() : Optional.of(contracts.get(contracts.size() - 1));
  }

  @Override
  public List<Stored<WorkPlanRecord>> workPlanRevisions() {
    return of(WorkPlanRecord.class);
  }

  @Override
  public List<Stored<PhaseRecord>> phaseRecords(String workPlanId) {
    return of(PhaseRecord.class).stream().filter(s -> s.record().workPlanId().equals(workPlanId)).toList();
  }

  @SuppressWarnings("unchecked")
  <T> List<Stored<T>> of(Class<T> type) {
    List<Stored<T>> found = new ArrayList<>();
    for (Stored<Object> stored : all) {
      if (type.isInstance(stored.record())) {
        found.add((Stored<T>) (Stored<?>) stored);
      }
    }
    return found;
  }
}
