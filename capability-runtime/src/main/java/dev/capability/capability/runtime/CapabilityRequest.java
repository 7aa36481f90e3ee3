package dev.capability.capability.runtime;

import java.util.List;
import java.util.Objects;

/**
 * What an {@link Executor} is asked to run: a verified package, the plan the policy decided on,
 * the input and exactly the effects the policy granted.
 */
public record CapabilityRequest(CapabilityPackage pkg, CapabilityPlan plan, String inputJson, List<Effect> granted) {
  public CapabilityRequest {
    Objects.requireNonNull(pkg, "pkg");
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(inputJson, "inputJson");
    granted = List.copyOf(Objects.requireNonNull(granted, "granted"));
  }
}
