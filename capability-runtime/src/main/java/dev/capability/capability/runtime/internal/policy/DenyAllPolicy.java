package dev.capability.capability.runtime.internal.policy;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.CapabilityPlan;
import dev.capability.capability.runtime.EffectPolicy;
import dev.capability.capability.runtime.PolicyDecision;
import java.util.List;
import java.util.Map;

/** Grants no effect: a capability that declares none may run, any other is denied. */
public final class DenyAllPolicy implements EffectPolicy {
  @Override
  public Map<String, Object> description() {
    return Map.of("policy", "deny-all");
  }

  @Override
  public PolicyDecision decide(CapabilityPlan plan) {
    if (plan.effects().isEmpty()) {
      return PolicyDecision.allow(plan, List.of());
    }
    return PolicyDecision.deny(plan, CapabilityCodes.POLICY_DENIED, "the deny-all policy grants no effect; requested " + plan.effects());
  }
}
