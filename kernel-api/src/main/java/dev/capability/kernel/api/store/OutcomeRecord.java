package dev.capability.kernel.api.store;

import java.util.Objects;
import java.util.Optional;

/**
 * How a correction ended.
 *
 * @param assumptionId the assumption corrected
 * @param resolved {@code true} for {@code RESOLVED}, {@code false} for {@code ABANDONED}
 * @param verificationSequence the store's sequence number of the verification that closed it;
 *     always present when resolved
 * @param reason what the agent or operator said
 */
public record OutcomeRecord(String assumptionId, boolean resolved, Optional<Long> verificationSequence, String reason)
    implements CorrectionRecord {
  public OutcomeRecord {
    Records.requireText(assumptionId, "assumptionId");
    Objects.requireNonNull(verificationSequence, "verificationSequence");
    Objects.requireNonNull(reason, "reason");
    if (verificationSequence.isPresent() && verificationSequence.get() < 1) {
      throw new IllegalArgumentException("sequence numbers start at 1, was " + verificationSequence.get());
    }
    if (resolved && verificationSequence.isEmpty()) {
      throw new IllegalArgumentException("a resolved correction names the verification that closed it");
    }
  }

  @Override
  public String event() {
    return resolved ? "RESOLVED" : "ABANDONED";
  }
}
