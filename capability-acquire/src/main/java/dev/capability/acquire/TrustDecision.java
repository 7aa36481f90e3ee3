package dev.capability.acquire;

import java.util.Objects;

/**
 * Whether a trust policy accepted what was observed.
 *
 * @param code {@link AcquisitionCodes#ACQUIRED} when accepted, otherwise the refusal code
 * @param reason a plain sentence
 * @param policy the name of the policy that decided, or {@code verification} when a failed check
 *     refused before any policy was asked
 */
public record TrustDecision(boolean accepted, String code, String reason, String policy) {
  public TrustDecision {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(policy, "policy");
    if (accepted != code.equals(AcquisitionCodes.ACQUIRED)) {
      throw new IllegalArgumentException("an accepted decision has code ACQUIRED and a refusal has another: " + code);
    }
  }

  public static TrustDecision accept(String policy, String reason) {
    return new TrustDecision(true, AcquisitionCodes.ACQUIRED, reason, policy);
  }

  public static TrustDecision refuse(String policy, String code, String reason) {
    return new TrustDecision(false, code, reason, policy);
  }
}
