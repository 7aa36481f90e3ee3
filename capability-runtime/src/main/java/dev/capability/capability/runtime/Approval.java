package dev.capability.capability.runtime;

import java.util.List;
import java.util.Objects;

/**
 * An approver's answer, bound to one plan fingerprint and the exact effects approved. It approves
 * nothing for any other plan or any other scope.
 */
public record Approval(String planFingerprint, boolean approved, List<Effect> effects, String reason) {
  public Approval {
    Objects.requireNonNull(planFingerprint, "planFingerprint");
    effects = List.copyOf(effects);
    Objects.requireNonNull(reason, "reason");
  }

  /** Approves exactly what {@code request} asked. */
  public static Approval grant(ApprovalRequest request) {
    return new Approval(request.planFingerprint(), true, request.effects(), "approved");
  }

  /** Refuses {@code request}. */
  public static Approval refuse(ApprovalRequest request, String reason) {
    return new Approval(request.planFingerprint(), false, List.of(), reason);
  }
}
