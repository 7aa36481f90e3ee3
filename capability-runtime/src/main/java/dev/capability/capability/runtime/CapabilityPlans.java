package dev.capability.capability.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.capability.runtime.internal.manifest.SchemaGuard;
import dev.capability.capability.runtime.support.StrictJson;
import dev.capability.capability.runtime.internal.plan.JsonValues;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.json.CanonicalJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** Makes {@link CapabilityPlan}s: validates the input and binds everything a run depends on. */
public final class CapabilityPlans {
  /** The largest input accepted, in characters. */
  public static final int MAX_INPUT = 1 << 20;

  /** The largest plan JSON {@link #fromJson} reads, in characters: room for the largest input and the rest. */
  public static final int MAX_PLAN_JSON = 2 * MAX_INPUT;

  private static final int MAX_INPUT_DEPTH = 64;
  private static final StrictJson INPUT = new StrictJson(MAX_INPUT, MAX_INPUT_DEPTH);
  // The input sits one level inside the plan.
  private static final StrictJson PLAN = new StrictJson(MAX_PLAN_JSON, MAX_INPUT_DEPTH + 1);
  private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{64}");

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

  /**
   * Rebuilds a plan from its JSON: {@link CapabilityPlan#canonicalJson()}, or the same object
   * written with any member order, whitespace or number spelling (as {@code capability plan
   * --json} prints it under {@code plan}). Numbers are read as RFC 8785 reads them, as doubles.
   * The rebuilt plan equals the original and has its fingerprint. Reading a plan checks its shape, not whether it can run: {@link
   * CapabilityRuntime#run(CapabilityPlan, CapabilityPackage, String)} re-plans from the package
   * and refuses any difference.
   *
   * @throws CapabilityException {@link CapabilityCodes#PLAN_INVALID} naming the member that is
   *     missing, unknown or of the wrong type, for JSON that is not strict (duplicate members,
   *     trailing content, over {@link #MAX_PLAN_JSON} characters), effects that are not sorted and
   *     distinct or not well formed, or an input without a canonical form
   */
  public static CapabilityPlan fromJson(String json) {
    Objects.requireNonNull(json, "json");
    JsonNode root;
    try {
      root = PLAN.parse(json, "the plan");
    } catch (StrictJson.StrictJsonException e) {
      throw invalid(e.getMessage(), e);
    }
    members(root, "", "capability", "input", "effects", "executor", "policy");
    JsonNode capabilityNode = root.get("capability");
    members(capabilityNode, "/capability", "name", "version", "entry", "modules", "package");
    JsonNode entry = capabilityNode.get("entry");
    members(entry, "/capability/entry", "module", "class");
    Map<String, Object> capability = new LinkedHashMap<>();
    capability.put("name", text(capabilityNode, "/capability", "name"));
    capability.put("version", text(capabilityNode, "/capability", "version"));
    capability.put("entry", Map.of("module", text(entry, "/capability/entry", "module"), "class", text(entry, "/capability/entry", "class")));
    capability.put("modules", texts(capabilityNode.get("modules"), "/capability/modules"));
    capability.put("package", text(capabilityNode, "/capability", "package"));
    List<Effect> effects = effects(root.get("effects"));
    JsonNode executor = root.get("executor");
    members(executor, "/executor", "id", "advertises");
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("capability", capability);
    body.put("input", JsonValues.plainReadingDoubles(root.get("input")));
    body.put("effects", effects.stream().map(Effect::toCanonical).toList());
    body.put("executor", Map.of("id", text(executor, "/executor", "id"), "advertises", texts(executor.get("advertises"), "/executor/advertises")));
    body.put("policy", text(root, "", "policy"));
    try {
      return new CapabilityPlan(body, effects);
    } catch (IllegalArgumentException e) {
      throw invalid("the plan's input has no canonical JSON form: " + e.getMessage(), e);
    }
  }

  /** Whether {@code text} is written as a fingerprint is: 64 lower-case hex digits. */
  static boolean isFingerprint(String text) {
    return FINGERPRINT.matcher(text).matches();
  }

  /** Refuses {@code node} unless it is an object with exactly {@code names} as members. */
  private static void members(JsonNode node, String where, String... names) {
    if (!node.isObject()) {
      throw invalid(place(where) + " must be an object with the members " + String.join(", ", names), null);
    }
    Set<String> expected = Set.of(names);
    for (String name : names) {
      if (!node.has(name)) {
        throw invalid(place(where) + " has no member '" + name + "'", null);
      }
    }
    node.fieldNames().forEachRemaining(name -> {
      if (!expected.contains(name)) {
        throw invalid(place(where) + " has an unknown member " + CanonicalJson.serialize(name) + "; a plan's members are " + String.join(", ", names), null);
      }
    });
  }

  private static String text(JsonNode parent, String where, String name) {
    JsonNode node = parent.get(name);
    if (!node.isTextual()) {
      throw invalid(where + "/" + name + " must be a string", null);
    }
    return node.asText();
  }

  private static Map<String, String> texts(JsonNode node, String where) {
    if (!node.isObject()) {
      throw invalid(where + " must be an object of strings", null);
    }
    Map<String, String> map = new TreeMap<>();
    node.fields().forEachRemaining(field -> {
      if (!field.getValue().isTextual()) {
        throw invalid(where + " member " + CanonicalJson.serialize(field.getKey()) + " must be a string", null);
      }
      map.put(field.getKey(), field.getValue().asText());
    });
    return map;
  }

  private static List<Effect> effects(JsonNode node) {
    if (!node.isArray()) {
      throw invalid("/effects must be an array of {\"kind\", \"scope\"} objects", null);
    }
    List<Effect> effects = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      String where = "/effects/" + i;
      JsonNode element = node.get(i);
      members(element, where, "kind", "scope");
      Effect effect;
      try {
        effect = Effect.of(text(element, where, "kind"), text(element, where, "scope"));
      } catch (CapabilityException e) {
        throw invalid(where + ": " + e.code() + ": " + e.getMessage(), e);
      }
      if (!effects.isEmpty() && effects.get(effects.size() - 1).compareTo(effect) >= 0) {
        throw invalid(where + " is " + effect + ", which repeats or is out of order: a plan lists its effects sorted and distinct", null);
      }
      effects.add(effect);
    }
    return effects;
  }

  private static String place(String where) {
    return where.isEmpty() ? "the plan" : where;
  }

  private static CapabilityException invalid(String message, @Nullable Throwable cause) {
    return new CapabilityException(CapabilityCodes.PLAN_INVALID, message, cause);
  }
}
