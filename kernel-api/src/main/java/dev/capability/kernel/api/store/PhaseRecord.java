package dev.capability.kernel.api.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one step of a phase concluded: a verification (its commands, outcome and normalized
 * failures), the critic's verdict, or the phase's completion.
 *
 * @param workPlanId the work plan's id
 * @param planRevision the plan revision in force when the step ran
 * @param phaseId the phase's id in that plan
 * @param event what the step was, for example {@code VERIFIED}, {@code VERIFICATION_FAILED},
 *     {@code COMPLETED}
 * @param executionSequences the store's sequence numbers of the launches the step made, in launch
 *     order; empty when it launched nothing
 * @param body the step's JSON form, as plain maps, lists, strings, numbers and booleans
 */
public record PhaseRecord(
    String workPlanId, int planRevision, String phaseId, String event, List<Long> executionSequences, Map<String, @Nullable Object> body) {
  public PhaseRecord {
    Records.requireText(workPlanId, "workPlanId");
    if (planRevision < 1) {
      throw new IllegalArgumentException("revisions start at 1, was " + planRevision);
    }
    Records.requireText(phaseId, "phaseId");
    Records.requireText(event, "event");
    executionSequences = List.copyOf(Objects.requireNonNull(executionSequences, "executionSequences"));
    for (Long sequence : executionSequences) {
      if (sequence < 1) {
        throw new IllegalArgumentException("sequence numbers start at 1, was " + sequence);
      }
    }
    body = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(body, "body")));
  }
}
