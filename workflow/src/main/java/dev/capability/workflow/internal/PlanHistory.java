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

/** What the phase records of one work plan say: which phases completed, when each started, how each was last verified. */
final class PlanHistory {
  private final Set<String> completed = new LinkedHashSet<>();
  private final Map<String, Map<String, String>> activations = new HashMap<>();
  private final Map<String, PhaseVerification> lastVerification = new HashMap<>();

  PlanHistory(String workPlanId, List<Stored<PhaseRecord>> records) {
    for (Stored<PhaseRecord> stored : records) {
      PhaseRecord record = stored.record();
      switch (record.event()) {
        case PhaseEvents.COMPLETED -> completed.add(record.phaseId());
        case PhaseEvents.ACTIVATED -> {
          Map<String, String> manifest = new TreeMap<>();
          ((Map<?, ?>) record.body().get("manifest")).forEach((k, v) -> manifest.put((String) k, (String) v));
          activations.put(record.phaseId(), manifest);
        }
        case PhaseEvents.VERIFIED, PhaseEvents.VERIFICATION_FAILED -> lastVerification.put(record.phaseId(),
            VerificationJson.fromMap(workPlanId, record.planRevision(), record.phaseId(), stored.sequence(), record.body()));
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
    return Optional.ofNullable(lastVerification.get(phaseId));
  }
}
