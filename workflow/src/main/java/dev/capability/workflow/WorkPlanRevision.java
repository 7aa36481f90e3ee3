package dev.capability.workflow;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One stored revision of a work plan.
 *
 * @param revision its number, from 1
 * @param revisionHash the SHA-256 of the plan's canonical JSON, as {@code sha256:<hex>}
 * @param plan the effective plan
 * @param warnings the warnings it was saved with
 * @param sequence where the store recorded it
 * @param recordedAt when the store recorded it
 */
public record WorkPlanRevision(int revision, String revisionHash, WorkPlan plan, List<PlanWarning> warnings, long sequence, Instant recordedAt) {
  public WorkPlanRevision {
    Objects.requireNonNull(revisionHash, "revisionHash");
    Objects.requireNonNull(plan, "plan");
    warnings = List.copyOf(warnings);
    Objects.requireNonNull(recordedAt, "recordedAt");
  }
}
