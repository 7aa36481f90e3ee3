package dev.capability.kernel.api.store;

import java.util.List;
import java.util.Objects;

/**
 * An approver's answer to a recorded plan's request for effects: approved or refused.
 *
 * @param approvalId this record's id, unique in the store
 * @param planId the {@link PlanRecord#planId()} of the plan it answers
 * @param planFingerprint that plan's fingerprint
 * @param approved whether the effects were approved
 * @param approver who answered, as the host names it (for example {@code command line (--approve)})
 * @param reason the answer's reason
 * @param effects the effects approved, each {@code kind(scope)}; empty for a refusal
 */
public record ApprovalRecord(
    String approvalId, String planId, String planFingerprint, boolean approved, String approver, String reason, List<String> effects) {
  public ApprovalRecord {
    Records.requireText(approvalId, "approvalId");
    Records.requireText(planId, "planId");
    Records.requireText(planFingerprint, "planFingerprint");
    Records.requireText(approver, "approver");
    Objects.requireNonNull(reason, "reason");
    effects = List.copyOf(Objects.requireNonNull(effects, "effects"));
  }
}
