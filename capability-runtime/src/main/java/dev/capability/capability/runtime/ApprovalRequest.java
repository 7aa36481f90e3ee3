package dev.capability.capability.runtime;

import java.util.List;
import java.util.Objects;

/** What an approver is asked: may this plan (by fingerprint) have exactly these effects? */
public record ApprovalRequest(String planFingerprint, String capability, List<Effect> effects) {
  public ApprovalRequest {
    Objects.requireNonNull(planFingerprint, "planFingerprint");
    Objects.requireNonNull(capability, "capability");
    effects = List.copyOf(effects);
  }
}
