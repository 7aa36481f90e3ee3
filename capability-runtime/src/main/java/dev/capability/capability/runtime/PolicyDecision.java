package dev.capability.capability.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A policy's answer for one plan: allowed with the exact granted effects, or denied with a code
 * and a reason. Bound to the plan's fingerprint; it grants nothing to any other plan.
 *
 * @param approvals the approvers' answers the decision rests on, in the order they were given;
 *     each is for this plan. The runtime reports each as an approval given (see {@link
 *     CapabilityEventListener#approvalGiven}), so the evidence holds them
 */
public record PolicyDecision(String planFingerprint, boolean allowed, List<Effect> granted, String code, String reason, List<Approval> approvals) {
  public PolicyDecision {
    Objects.requireNonNull(planFingerprint, "planFingerprint");
    granted = List.copyOf(granted);
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(reason, "reason");
    approvals = List.copyOf(Objects.requireNonNull(approvals, "approvals"));
    if (!allowed && !granted.isEmpty()) {
      throw new IllegalArgumentException("a denial grants nothing");
    }
    for (Approval approval : approvals) {
      if (!approval.planFingerprint().equals(planFingerprint)) {
        throw new IllegalArgumentException("a decision rests only on approvals of its own plan, not of " + approval.planFingerprint());
      }
    }
  }

  /** A decision that rests on no approval. */
  public PolicyDecision(String planFingerprint, boolean allowed, List<Effect> granted, String code, String reason) {
    this(planFingerprint, allowed, granted, code, reason, List.of());
  }

  /** Allows {@code plan} with exactly {@code granted}. */
  public static PolicyDecision allow(CapabilityPlan plan, List<Effect> granted) {
    return new PolicyDecision(plan.fingerprint(), true, granted, "ALLOWED", "allowed");
  }

  /** Denies {@code plan}. */
  public static PolicyDecision deny(CapabilityPlan plan, String code, String reason) {
    return new PolicyDecision(plan.fingerprint(), false, List.of(), code, reason);
  }

  /** This decision, resting on {@code approval} as well. */
  public PolicyDecision withApproval(Approval approval) {
    List<Approval> all = new ArrayList<>(approvals);
    all.add(Objects.requireNonNull(approval, "approval"));
    return new PolicyDecision(planFingerprint, allowed, granted, code, reason, all);
  }
}
