package dev.capability.capability.runtime.internal.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.support.StrictJson;
import dev.capability.kernel.api.CapabilityException;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads an effect policy file (docs/schemas/effect-policy.schema.json) strictly: UTF-8 JSON without
 * duplicates, comments or unknown members; every refusal is {@code POLICY_FILE_INVALID} and names
 * the file and the member.
 */
public final class PolicyFileParser {
  public static final int MAX_BYTES = 256 * 1024;
  private static final StrictJson JSON = new StrictJson(MAX_BYTES, 16);
  public static final Set<String> TOP = Set.of("version", "capabilities", "grants");
  public static final Set<String> GRANT = Set.of("effect", "scope");
  private static final Pattern CAPABILITY = Pattern.compile("[a-z0-9][a-z0-9._-]{0,127}@[0-9A-Za-z.+-]{1,64}");

  private PolicyFileParser() {}

  public static GrantListPolicy parse(byte[] bytes, String source) {
    JsonNode root;
    try {
      root = JSON.parse(bytes, source);
    } catch (StrictJson.StrictJsonException e) {
      throw invalid(e.getMessage());
    }
    if (!root.isObject()) {
      throw invalid(source + " is not a JSON object");
    }
    onlyKnown(root, TOP, source);
    JsonNode version = root.get("version");
    if (version == null || !version.isIntegralNumber() || version.asInt() != 1) {
      throw invalid(source + ": \"version\" must be 1");
    }
    Set<String> capabilities = new LinkedHashSet<>();
    JsonNode names = root.path("capabilities");
    if (!names.isMissingNode()) {
      if (!names.isArray()) {
        throw invalid(source + ": \"capabilities\" must be an array of name@version");
      }
      for (int i = 0; i < names.size(); i++) {
        JsonNode name = names.get(i);
        if (!name.isTextual() || !CAPABILITY.matcher(name.asText()).matches() || !capabilities.add(name.asText())) {
          throw invalid(source + ": capabilities[" + i + "] must be a distinct name@version");
        }
      }
    }
    JsonNode grants = root.get("grants");
    if (grants == null || !grants.isArray()) {
      throw invalid(source + ": \"grants\" must be an array (empty grants nothing)");
    }
    Set<Effect> effects = new LinkedHashSet<>();
    for (int i = 0; i < grants.size(); i++) {
      String where = source + ": grants[" + i + "]";
      JsonNode grant = grants.get(i);
      if (!grant.isObject()) {
        throw invalid(where + " must be an object with \"effect\" and \"scope\"");
      }
      onlyKnown(grant, GRANT, where);
      if (!grant.path("effect").isTextual() || !grant.path("scope").isTextual()) {
        throw invalid(where + " needs the strings \"effect\" and \"scope\"");
      }
      Effect effect;
      try {
        effect = Effect.of(grant.get("effect").asText(), grant.get("scope").asText());
      } catch (CapabilityException e) {
        throw new CapabilityException(e.code(), where + ": " + e.getMessage());
      }
      if (!effects.add(effect)) {
        throw invalid(where + " repeats " + effect);
      }
    }
    return new GrantListPolicy(capabilities, effects);
  }

  private static void onlyKnown(JsonNode object, Set<String> known, String where) {
    for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!known.contains(name)) {
        throw invalid(where + ": unknown member \"" + name + "\"; known: " + known.stream().sorted().toList());
      }
    }
  }

  private static CapabilityException invalid(String message) {
    return new CapabilityException(CapabilityCodes.POLICY_FILE_INVALID, message);
  }
}
