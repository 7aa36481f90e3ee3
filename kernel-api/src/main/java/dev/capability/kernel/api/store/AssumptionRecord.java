package dev.capability.kernel.api.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An assumption an agent made while working a phase of a work plan, with the links that say what
 * depends on it.
 *
 * @param assumptionId the assumption's id, unique in the store
 * @param workPlanId the work plan it was made under
 * @param phaseId the phase it was made in
 * @param assumption its JSON form (statement, rejected alternatives, confidence, links), as plain
 *     maps, lists, strings, numbers and booleans
 */
public record AssumptionRecord(String assumptionId, String workPlanId, String phaseId, Map<String, Object> assumption) {
  public AssumptionRecord {
    Records.requireText(assumptionId, "assumptionId");
    Records.requireText(workPlanId, "workPlanId");
    Records.requireText(phaseId, "phaseId");
    assumption = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(assumption, "assumption")));
  }
}
