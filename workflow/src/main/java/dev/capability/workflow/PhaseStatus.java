package dev.capability.workflow;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a work plan stands.
 *
 * @param workPlanId the plan
 * @param revision the revision in force
 * @param completed the ids of the completed phases, in plan order
 * @param active the active phase, empty when every phase is complete
 * @param lastVerification the active phase's last verification under this revision, if any
 */
public record PhaseStatus(
    String workPlanId, int revision, List<String> completed, Optional<String> active, Optional<PhaseVerification> lastVerification) {
  public PhaseStatus {
    Objects.requireNonNull(workPlanId, "workPlanId");
    completed = List.copyOf(completed);
    Objects.requireNonNull(active, "active");
    Objects.requireNonNull(lastVerification, "lastVerification");
  }
}
