package dev.capability.acquire;

import dev.capability.acquire.internal.AcquisitionJson;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of one acquisition: the stored package when it was accepted, always the
 * observations, the advisory score and the decision.
 *
 * @param stored {@code <store>/sha256/<hex>} when accepted; empty when refused (nothing was stored)
 */
public record Acquisition(Optional<Path> stored, Observations observations, TrustScore score, TrustDecision decision) {
  public Acquisition {
    Objects.requireNonNull(stored, "stored");
    Objects.requireNonNull(observations, "observations");
    Objects.requireNonNull(score, "score");
    Objects.requireNonNull(decision, "decision");
    if (stored.isPresent() != decision.accepted()) {
      throw new IllegalArgumentException("a package is stored exactly when it is accepted");
    }
  }

  public boolean accepted() {
    return decision.accepted();
  }

  /**
   * This acquisition as one JSON document: coordinates, stored path, digests, decision,
   * observations and score. Its shape is documented in {@code docs/acquisition.md}; it is what
   * {@code <store>/observations/<sha256>.json} holds for an accepted package.
   */
  public String toJson() {
    return AcquisitionJson.write(this);
  }
}
