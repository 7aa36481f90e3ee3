package dev.capability.capability.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.capability.runtime.internal.manifest.SchemaGuard;
import dev.capability.capability.runtime.support.StrictJson;
import dev.capability.capability.runtime.internal.plan.JsonValues;
import dev.capability.kernel.api.CapabilityException;
import java.util.Objects;

/** Makes {@link CapabilityPlan}s: validates the input and binds everything a run depends on. */
public final class CapabilityPlans {
  /** The largest input accepted, in characters. */
  public static final int MAX_INPUT = 1 << 20;

  private static final StrictJson INPUT = new StrictJson(MAX_INPUT, 64);

  private CapabilityPlans() {}

  /**
   * Plans one run of {@code pkg} with {@code inputJson}, for {@code executor} under {@code policy}.
   *
   * @throws CapabilityException {@link CapabilityCodes#INPUT_INVALID} for input that is not strict
   *     JSON, has no canonical form, or does not match the manifest's input schema
   */
  public static CapabilityPlan plan(CapabilityPackage pkg, String inputJson, ExecutorIdentity executor, EffectPolicy policy) {
    Objects.requireNonNull(pkg, "pkg");
    Objects.requireNonNull(inputJson, "inputJson");
    Objects.requireNonNull(policy, "policy");
    CapabilityDescriptor descriptor = pkg.descriptor();
    JsonNode input;
    try {
      input = INPUT.parse(inputJson, "input");
    } catch (StrictJson.StrictJsonException e) {
      throw new CapabilityException(CapabilityCodes.INPUT_INVALID, e.getMessage(), e);
    }
    SchemaGuard.compile(descriptor.inputSchema(), "input schema")
        .problem(input)
        .ifPresent(problem -> {
          throw new CapabilityException(CapabilityCodes.INPUT_INVALID, "input does not match the input schema: " + problem);
        });
    try {
      return new CapabilityPlan(descriptor, JsonValues.plain(input), executor, policy.hash());
    } catch (IllegalArgumentException e) {
      throw new CapabilityException(CapabilityCodes.INPUT_INVALID, "input has no canonical JSON form: " + e.getMessage(), e);
    }
  }
}
