package dev.capability.junit5.internal;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.json.CanonicalJson;
import java.util.List;
import java.util.Optional;

/**
 * Which executions changed a path their write scope does not allow, and the message that fails
 * the test for them. An attestation's violations also list refused egress attempts (kinds starting
 * with {@code EGRESS_}); those are the network policy working, not writes, and do not count.
 */
final class WriteScopeViolations {
  private static final String EGRESS_KIND_PREFIX = "EGRESS_";

  private WriteScopeViolations() {}

  static List<Attestation.Violation> of(Attestation attestation) {
    return attestation.violations().stream().filter(v -> !v.kind().startsWith(EGRESS_KIND_PREFIX)).toList();
  }

  /** The failure message for {@code executions}, or empty when none violated its write scope. */
  static Optional<String> message(List<Attestation> executions) {
    List<Attestation> violating = executions.stream().filter(a -> !of(a).isEmpty()).toList();
    if (violating.isEmpty()) {
      return Optional.empty();
    }
    StringBuilder message = new StringBuilder()
        .append(violating.size()).append(violating.size() == 1 ? " execution" : " executions")
        .append(" of this test changed paths outside the write scope:");
    for (Attestation attestation : violating) {
      message.append("\n- ").append(String.join(" ", attestation.argv()));
      for (Attestation.Violation v : of(attestation)) {
        message.append("\n    ").append(v.path()).append(" (").append(v.kind()).append("): layer ")
            .append(v.layer()).append(" rule ").append(v.rule()).append(": ").append(v.reason());
      }
      message.append("\n  attestation: ").append(CanonicalJson.serialize(AttestationJson.toMap(attestation)));
    }
    return Optional.of(message.toString());
  }
}
