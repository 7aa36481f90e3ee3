package dev.capability.capability.runtime;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.json.CanonicalJson;
import java.util.List;
import java.util.Objects;

/**
 * Refuses to run anything but what was planned and approved. An executor re-plans from the
 * package bytes it is about to run, the input it was given and the policy in force, and calls
 * {@link #verify}: any difference is {@link CapabilityCodes#PLAN_DRIFT}.
 */
public final class PlanVerifier {
  private PlanVerifier() {}

  /**
   * @throws CapabilityException {@link CapabilityCodes#PLAN_DRIFT} naming what changed: {@code
   *     capability} (package bytes, modules, identity), {@code input}, {@code effects}, {@code
   *     executor} or {@code policy}
   */
  public static void verify(CapabilityPlan approved, CapabilityPlan recomputed) {
    Objects.requireNonNull(approved, "approved");
    Objects.requireNonNull(recomputed, "recomputed");
    if (approved.fingerprint().equals(recomputed.fingerprint())) {
      return;
    }
    List<String> changed = approved.differences(recomputed);
    throw new CapabilityException(
        CapabilityCodes.PLAN_DRIFT,
        "the plan drifted since it was approved; changed: " + String.join(", ", changed)
            + " (approved " + approved.fingerprint() + ", now " + recomputed.fingerprint() + ")");
  }

  /**
   * Refuses to run anything but the plan with the fingerprint a person approved, for example one
   * printed by {@code capability plan} in another process.
   *
   * @throws CapabilityException {@link CapabilityCodes#PLAN_INVALID} when {@code approvedFingerprint}
   *     is not 64 lower-case hex digits; {@link CapabilityCodes#PLAN_DRIFT} naming both
   *     fingerprints when {@code recomputed} has another
   */
  public static void verify(String approvedFingerprint, CapabilityPlan recomputed) {
    Objects.requireNonNull(approvedFingerprint, "approvedFingerprint");
    Objects.requireNonNull(recomputed, "recomputed");
    if (!CapabilityPlans.isFingerprint(approvedFingerprint)) {
      throw new CapabilityException(
          CapabilityCodes.PLAN_INVALID,
          CanonicalJson.serialize(approvedFingerprint) + " is not a plan fingerprint: 64 lower-case hex digits");
    }
    if (!approvedFingerprint.equals(recomputed.fingerprint())) {
      throw new CapabilityException(
          CapabilityCodes.PLAN_DRIFT,
          "the plan is not the one approved: approved " + approvedFingerprint + ", now " + recomputed.fingerprint()
              + "; the package bytes, the input, the effects, the executor or the policy changed");
    }
  }

  /**
   * Refuses a decision that was made for another plan, or that did not allow the run.
   *
   * @throws CapabilityException {@link CapabilityCodes#APPROVAL_NOT_FOR_PLAN} or the decision's
   *     denial code
   */
  public static void verifyDecision(CapabilityPlan plan, PolicyDecision decision) {
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(decision, "decision");
    if (!decision.planFingerprint().equals(plan.fingerprint())) {
      throw new CapabilityException(
          CapabilityCodes.APPROVAL_NOT_FOR_PLAN,
          "the decision was made for plan " + decision.planFingerprint() + ", not " + plan.fingerprint());
    }
    if (!decision.allowed()) {
      throw new CapabilityException(decision.code(), decision.reason());
    }
  }
}
