package dev.capability.workflow;

import java.util.Objects;

/**
 * An assumption found wrong and the correction radius computed from it.
 *
 * @param assumptionId the assumption
 * @param rootCause why it was wrong
 * @param phaseId the phase whose authority bounds the correction (the phase active when it was invalidated)
 * @param radius the radius
 * @param sequence the store's sequence number of the invalidation
 */
public record Invalidation(String assumptionId, String rootCause, String phaseId, CorrectionRadius radius, long sequence) {
  public Invalidation {
    Objects.requireNonNull(assumptionId, "assumptionId");
    Objects.requireNonNull(rootCause, "rootCause");
    Objects.requireNonNull(phaseId, "phaseId");
    Objects.requireNonNull(radius, "radius");
  }
}
