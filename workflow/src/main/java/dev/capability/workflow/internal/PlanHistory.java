package dev.capability.workflow.internal;

import dev.capability.kernel.api.store.PhaseRecord;
import dev.capability.kernel.api.store.Stored;
import dev.capability.workflow.Phase;
import dev.capability.workflow.PhaseVerification;
import dev.capability.workflow.WorkPlan;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the phase records of one work plan say: which phases completed, when each started, how each
 * was last verified. A phase is verified again and again, so only the last verification of each
 * phase is read into a {@link PhaseVerification}, when asked for: reading every earlier one on
 * each call made a verification's cost grow with the plan's history.
 */
final class PlanHistory {
  private final String workPlanId;
  private final Set<String> completed = new LinkedHashSet<>();
  private final Map<String, Map<String, String>> activations = new HashMap<>();
  private final Map<String, Stored<PhaseRecord>> lastVerification = new HashMap<>();

  PlanHistory(String workPlanId, List<Stored<PhaseRecord>> records) {
    this.workPlanId = workPlanId;
    for (Stored<PhaseRecord> stored : records) {
      PhaseRecord record = stored.record();
      switch (record.event()) {
        case PhaseEvents.COMPLETED -> completed.add(record.phaseId());
        case PhaseEvents.ACTIVATED -> {
          Map<String, String> manifest = new TreeMap<>();
          ((Map<?, ?>) record.body().get("manifest")).forEach((k, v) -> manifest.put((String) k, (String) v));
          activations.put(record.phaseId(), manifest);
        }
        case PhaseEvents.VERIFIED, PhaseEvents.VERIFICATION_FAILED -> lastVerification.put(record.phaseId(), stored);
        default -> {
          // Events of a later format are not this reader's to judge.
        }
      }
    }
  }

  boolean isCompleted(String phaseId) {
    return completed.contains(phaseId);
  }

  /** The first phase of {@code plan} not completed: the active one. */
  Optional<Phase> active(WorkPlan plan) {
    return plan.phases().stream().filter(p -> !completed.contains(p.id())).findFirst();
  }

  Optional<Map<String, String>> activation(String phaseId) {
    return Optional.ofNullable(activations.get(phaseId));
  }

  Optional<PhaseVerification> lastVerification(String phaseId) {
    Stored<PhaseRecord> stored = lastVerification.get(phaseId);
    if (stored == null) {
      return Optional.empty();
    }
    PhaseRecord record = stored.record();
    return Optional.of(VerificationJson.fromMap(workPlanId, record.planRevision(), record.phaseId(), stored.sequence(), record.body()));
  }
}
