package dev.capability.kernel.api.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An assumption found wrong, and the correction radius computed from it.
 *
 * @param assumptionId the assumption invalidated
 * @param rootCause why it was wrong, as the agent or operator said
 * @param radius the repository-relative files the correction may change, sorted
 * @param details the rest of the computation's JSON form: the bounds, whether one was reached,
 *     what the phase's scope left out, and the working tree's manifest when it was invalidated
 */
public record InvalidationRecord(String assumptionId, String rootCause, List<String> radius, Map<String, Object> details)
    implements CorrectionRecord {
  public InvalidationRecord {
    Records.requireText(assumptionId, "assumptionId");
    Records.requireText(rootCause, "rootCause");
    radius = List.copyOf(Objects.requireNonNull(radius, "radius"));
    details = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(details, "details")));
  }

  @Override
  public String event() {
    return "INVALIDATED";
  }
}
