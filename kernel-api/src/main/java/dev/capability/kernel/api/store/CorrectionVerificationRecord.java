package dev.capability.kernel.api.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A verification of a correction: the phase's commands run with the radius as a layer, and the
 * audit of everything changed since the invalidation.
 *
 * @param assumptionId the assumption whose correction was verified
 * @param passed whether every check passed
 * @param executionSequences the store's sequence numbers of the launches it made, in launch order
 * @param details its JSON form (commands, violations, secrets, digests)
 */
public record CorrectionVerificationRecord(String assumptionId, boolean passed, List<Long> executionSequences, Map<String, Object> details)
    implements CorrectionRecord {
  public CorrectionVerificationRecord {
    Records.requireText(assumptionId, "assumptionId");
    executionSequences = List.copyOf(Objects.requireNonNull(executionSequences, "executionSequences"));
    for (Long sequence : executionSequences) {
      if (sequence < 1) {
        throw new IllegalArgumentException("sequence numbers start at 1, was " + sequence);
      }
    }
    details = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(details, "details")));
  }

  @Override
  public String event() {
    return passed ? "VERIFIED" : "VERIFICATION_FAILED";
  }
}
