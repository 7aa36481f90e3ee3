package dev.capability.capability.runtime;

import java.util.List;
import java.util.Objects;

/**
 * A policy's answer for one plan: allowed with the exact granted effects, or denied with a code
 * and a reason. Bound to the plan's fingerprint; it grants nothing to any other plan.
 */
public record PolicyDecision(String planFingerprint, boolean allowed, List<Effect> granted, String code, String reason) {
  public PolicyDecision {
    Objects.requireNonNull(planFingerprint, "planFingerprint");
    granted = List.copyOf(granted);
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(reason, "reason");
    if (!allowed && !granted.isEmpty()) {
      throw new IllegalArgumentException("a denial grants nothing");
    }
  }

  /** Allows {@code plan} with exactly {@code granted}. */
  public static PolicyDecision allow(CapabilityPlan plan, List<Effect> granted) {
    return new PolicyDecision(plan.fingerprint(), true, granted, "ALLOWED", "allowed");
  }

  /** Denies {@code plan}. */
  public static PolicyDecision deny(CapabilityPlan plan, String code, String reason) {
    return new PolicyDecision(plan.fingerprint(), false, List.of(), code, reason);
  }
}
