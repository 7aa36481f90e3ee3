package dev.capability.capability.runtime;

import dev.capability.kernel.api.json.CanonicalJson;
import java.util.Map;

/**
 * Decides which of a plan's requested effects are granted. Implement this for a custom policy; the
 * runtime only ever calls it through {@link EffectPolicies#decide}, which fails closed.
 */
public interface EffectPolicy {

  /**
   * A JSON-able description of everything the policy's decisions depend on (plain maps, lists,
   * strings, numbers), hashed into every plan: change the policy and old plans drift.
   */
  Map<String, Object> description();

  /**
   * The decision for {@code plan}. Throwing, or answering for another plan or with effects the plan
   * did not request, is a denial.
   */
  PolicyDecision decide(CapabilityPlan plan);

  /** SHA-256 of the canonical JSON of {@link #description()}. */
  default String hash() {
    return CanonicalJson.sha256(description());
  }
}
