package dev.capability.capability.runtime;

import dev.capability.capability.runtime.internal.policy.BoundedApprovals;
import dev.capability.capability.runtime.internal.policy.DecisionPoint;
import dev.capability.capability.runtime.internal.policy.DenyAllPolicy;
import dev.capability.capability.runtime.internal.policy.PermissivePolicy;
import java.time.Duration;
import java.util.Objects;

/** The built-in policies and the single, fail-closed point where any policy is asked. */
public final class EffectPolicies {
  /** How long the permissive policy waits for an approval by default. */
  public static final Duration DEFAULT_APPROVAL_TIMEOUT = Duration.ofMinutes(5);

  private EffectPolicies() {}

  /** The default: no effect is granted; a capability that declares none may still run. */
  public static EffectPolicy denyAll() {
    return new DenyAllPolicy();
  }

  /** Grants declared effects, asking {@code handler} for every mutating or open-world one. */
  public static EffectPolicy permissive(ApprovalHandler handler) {
    return permissive(handler, DEFAULT_APPROVAL_TIMEOUT);
  }

  /** As {@link #permissive(ApprovalHandler)}, waiting at most {@code timeout} for each answer. */
  public static EffectPolicy permissive(ApprovalHandler handler, Duration timeout) {
    Objects.requireNonNull(handler, "handler");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive");
    }
    return new PermissivePolicy(new BoundedApprovals(handler, timeout));
  }

  /**
   * Asks {@code policy} about {@code plan}. Never throws for the policy's faults: a policy that
   * throws, answers null, answers for another plan, grants unrequested effects, or whose hash is
   * not the one the plan was made for, yields a denial.
   */
  public static PolicyDecision decide(EffectPolicy policy, CapabilityPlan plan) {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(plan, "plan");
    return DecisionPoint.decide(policy, plan);
  }
}
