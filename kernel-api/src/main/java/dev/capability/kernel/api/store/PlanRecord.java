package dev.capability.kernel.api.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A capability plan, as the runtime made or was given it for one run.
 *
 * @param planId this record's id, unique in the store (the runtime draws a random UUID per run)
 * @param fingerprint the plan's fingerprint, which approvals and receipts refer to
 * @param capability {@code name@version}
 * @param plan the plan's JSON form, as plain maps, lists, strings, numbers and booleans
 */
public record PlanRecord(String planId, String fingerprint, String capability, Map<String, @Nullable Object> plan) {
  public PlanRecord {
    Records.requireText(planId, "planId");
    Records.requireText(fingerprint, "fingerprint");
    Records.requireText(capability, "capability");
    plan = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(plan, "plan")));
  }
}
