package dev.capability.capability.runtime.internal.policy;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.CapabilityPlan;
import dev.capability.capability.runtime.EffectPolicy;
import dev.capability.capability.runtime.PolicyDecision;
import java.util.HashSet;

/** The one place a policy is asked. Whatever goes wrong, the answer is a denial. */
public final class DecisionPoint {
  private DecisionPoint() {}

  public static PolicyDecision decide(EffectPolicy policy, CapabilityPlan plan) {
    String hash;
    try {
      hash = policy.hash();
    } catch (RuntimeException e) {
      return PolicyDecision.deny(plan, CapabilityCodes.POLICY_FAILED, "the policy has no canonical description: " + e.getMessage());
    }
    if (!hash.equals(plan.policyHash())) {
      return PolicyDecision.deny(plan, CapabilityCodes.PLAN_DRIFT, "the plan was made for another policy");
    }
    PolicyDecision decision;
    try {
      decision = policy.decide(plan);
    } catch (RuntimeException e) {
      return PolicyDecision.deny(plan, CapabilityCodes.POLICY_FAILED, "the policy threw " + e);
    }
    if (decision == null) {
      return PolicyDecision.deny(plan, CapabilityCodes.POLICY_FAILED, "the policy answered null");
    }
    if (!decision.planFingerprint().equals(plan.fingerprint())) {
      return PolicyDecision.deny(plan, CapabilityCodes.APPROVAL_NOT_FOR_PLAN, "the policy answered for plan " + decision.planFingerprint());
    }
    if (decision.allowed() && !new HashSet<>(plan.effects()).containsAll(decision.granted())) {
      return PolicyDecision.deny(plan, CapabilityCodes.POLICY_FAILED, "the policy granted effects the plan did not request");
    }
    return decision;
  }
}
