package dev.capability.capability.runtime.internal.policy;

import dev.capability.capability.runtime.Approval;
import dev.capability.capability.runtime.ApprovalRequest;
import dev.capability.capability.runtime.CapabilityPlan;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.EffectPolicy;
import dev.capability.capability.runtime.PolicyDecision;
import java.util.List;
import java.util.Map;

/**
 * Grants the declared effects, after asking for approval of every mutating or open-world one. The
 * approval covers all of them or the plan is denied: a run never gets part of what it planned.
 */
public final class PermissivePolicy implements EffectPolicy {
  private final BoundedApprovals approvals;

  public PermissivePolicy(BoundedApprovals approvals) {
    this.approvals = approvals;
  }

  @Override
  public Map<String, Object> description() {
    return Map.of("policy", "permissive");
  }

  @Override
  public PolicyDecision decide(CapabilityPlan plan) {
    List<Effect> needApproval = plan.effects().stream().filter(e -> e.kind().needsApproval()).toList();
    if (needApproval.isEmpty()) {
      return PolicyDecision.allow(plan, plan.effects());
    }
    Approval approval = approvals.review(new ApprovalRequest(plan.fingerprint(), plan.capability(), needApproval));
    if (!approval.approved()) {
      int colon = approval.reason().indexOf(':');
      String code = colon > 0 ? approval.reason().substring(0, colon) : "APPROVAL_REFUSED";
      return PolicyDecision.deny(plan, code, approval.reason()).withApproval(approval);
    }
    return PolicyDecision.allow(plan, plan.effects()).withApproval(approval);
  }
}
