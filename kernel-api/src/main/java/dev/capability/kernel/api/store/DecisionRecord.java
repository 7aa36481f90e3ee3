package dev.capability.kernel.api.store;

import dev.capability.kernel.api.Attestation.DecisionSummary;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A decision made without running anything, as {@code capability check} makes: the argv, the
 * decision, and what would have run. Fields that were not reached are null.
 *
 * @param argv the argv as parsed; empty when the command string was refused
 * @param decision the decision, naming the layer and rule
 * @param policyHash SHA-256 of the policy's canonical JSON, when known
 * @param executablePath the canonical path of the executable, once resolved
 * @param executableSha256 its SHA-256, once resolved
 * @param backendId the backend that would have launched it, once selected
 * @param decidedAt when the decision was made, by the deciding kernel's clock
 */
public record DecisionRecord(
    List<String> argv,
    DecisionSummary decision,
    @Nullable String policyHash,
    @Nullable String executablePath,
    @Nullable String executableSha256,
    @Nullable String backendId,
    Instant decidedAt) {

  public DecisionRecord {
    argv = List.copyOf(Objects.requireNonNull(argv, "argv"));
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(decidedAt, "decidedAt");
    if ((executablePath == null) != (executableSha256 == null)) {
      throw new IllegalArgumentException("executablePath and executableSha256 come together");
    }
  }
}
