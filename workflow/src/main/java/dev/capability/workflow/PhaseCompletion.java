package dev.capability.workflow;

import java.util.Objects;
import java.util.Optional;

/**
 * A completed phase.
 *
 * @param workPlanId the plan
 * @param planRevision the revision in force
 * @param phaseId the phase completed
 * @param inputTreeHash the Git tree id of the working tree the evidence was taken on
 * @param verificationSequence the store sequence of the verification it completed on
 * @param nextPhaseId the phase now active, if any is left
 */
public record PhaseCompletion(
    String workPlanId, int planRevision, String phaseId, String inputTreeHash, long verificationSequence, Optional<String> nextPhaseId) {
  public PhaseCompletion {
    Objects.requireNonNull(workPlanId, "workPlanId");
    Objects.requireNonNull(phaseId, "phaseId");
    Objects.requireNonNull(inputTreeHash, "inputTreeHash");
    Objects.requireNonNull(nextPhaseId, "nextPhaseId");
  }
}
