package dev.capability.capability.runtime.internal.policy;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.CapabilityPlan;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.EffectPolicy;
import dev.capability.capability.runtime.PolicyDecision;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * An operator's list of grants, as a policy file states it: a plan is allowed when every effect it
 * requests is on the list (and, when the file names capabilities, the capability is one of them);
 * otherwise it is denied whole, naming what the list lacks. Nothing is asked of anyone.
 */
public final class GrantListPolicy implements EffectPolicy {
  private final SortedSet<String> capabilities;
  private final SortedSet<Effect> grants;

  /**
   * @param capabilities {@code name@version} of the capabilities the grants are for; empty for any
   * @param grants the effects the operator grants
   */
  public GrantListPolicy(Set<String> capabilities, Set<Effect> grants) {
    this.capabilities = new TreeSet<>(capabilities);
    this.grants = new TreeSet<>(grants);
  }

  @Override
  public Map<String, Object> description() {
    // Content only, never the file's path: the same grants anywhere hash the same, and any edit drifts.
    Map<String, Object> description = new LinkedHashMap<>();
    description.put("policy", "grant-list");
    description.put("capabilities", List.copyOf(capabilities));
    description.put("grants", grants.stream().map(Effect::toCanonical).toList());
    return description;
  }

  @Override
  public PolicyDecision decide(CapabilityPlan plan) {
    if (!capabilities.isEmpty() && !capabilities.contains(plan.capability())) {
      return PolicyDecision.deny(
          plan, CapabilityCodes.POLICY_DENIED, "the policy file grants nothing to " + plan.capability() + "; it names " + capabilities);
    }
    List<Effect> missing = plan.effects().stream().filter(effect -> !grants.contains(effect)).toList();
    if (!missing.isEmpty()) {
      return PolicyDecision.deny(plan, CapabilityCodes.POLICY_DENIED, "the policy file does not grant " + missing);
    }
    return PolicyDecision.allow(plan, plan.effects());
  }
}
