package dev.capability.workflow;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An assumption and what its records say of it.
 *
 * @param assumption the assumption
 * @param sequence the store's sequence number of the assumption
 * @param invalidation its invalidation, once invalidated
 * @param expansions the expansions of its correction, oldest first
 * @param verifications the verifications of its correction, oldest first
 * @param outcome how its correction ended, once it did
 */
public record AssumptionState(
    Assumption assumption,
    long sequence,
    Optional<Invalidation> invalidation,
    List<ScopeExpansion> expansions,
    List<PhaseVerification> verifications,
    Optional<CorrectionOutcome> outcome) {
  public AssumptionState {
    Objects.requireNonNull(assumption, "assumption");
    Objects.requireNonNull(invalidation, "invalidation");
    expansions = List.copyOf(expansions);
    verifications = List.copyOf(verifications);
    Objects.requireNonNull(outcome, "outcome");
  }

  /** {@code OPEN}, {@code INVALIDATED}, {@code RESOLVED} or {@code ABANDONED}. */
  public String status() {
    if (outcome.isPresent()) {
      return outcome.get().resolved() ? "RESOLVED" : "ABANDONED";
    }
    return invalidation.isPresent() ? "INVALIDATED" : "OPEN";
  }
}
