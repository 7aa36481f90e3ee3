package dev.capability.workflow;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A work plan: ordered phases, worked through one at a time. The first phase not yet completed is
 * the active one.
 *
 * @param id the plan's id, the same in every revision
 * @param title what the plan is for, for people
 * @param phases the phases, in order
 */
public record WorkPlan(String id, String title, List<Phase> phases) {
  public WorkPlan {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(title, "title");
    phases = List.copyOf(phases);
  }

  /** The phase with {@code phaseId}, if the plan has one. */
  public Optional<Phase> phase(String phaseId) {
    return phases.stream().filter(p -> p.id().equals(phaseId)).findFirst();
  }
}
