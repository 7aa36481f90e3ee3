package dev.capability.workflow;

import java.util.Objects;
import java.util.Optional;

/**
 * How a correction ended.
 *
 * @param assumptionId the assumption
 * @param resolved {@code true} when resolved, {@code false} when abandoned
 * @param verificationSequence the verification that closed it (always present when resolved)
 * @param reason what was said
 * @param sequence the store's sequence number of the outcome
 */
public record CorrectionOutcome(String assumptionId, boolean resolved, Optional<Long> verificationSequence, String reason, long sequence) {
  public CorrectionOutcome {
    Objects.requireNonNull(assumptionId, "assumptionId");
    Objects.requireNonNull(verificationSequence, "verificationSequence");
    Objects.requireNonNull(reason, "reason");
  }
}
