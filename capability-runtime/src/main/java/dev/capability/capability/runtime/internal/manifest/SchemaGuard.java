package dev.capability.capability.runtime.internal.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Accepts only self-contained JSON Schemas (draft 2020-12): every reference stays inside the
 * document, so compiling or validating never fetches anything.
 */
public final class SchemaGuard {
  static final String DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";
  private static final Set<String> REFERENCES = Set.of("$ref", "$dynamicRef", "$recursiveRef");
  private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

  private SchemaGuard() {}

  /** Refuses a schema that is not self-contained or does not compile; returns it compiled. */
  public static JsonSchema compile(JsonNode schema, String where) {
    if (!schema.isObject() && !schema.isBoolean()) {
      throw refused(where, "must be a JSON Schema object or boolean");
    }
    checkSelfContained(schema, where);
    try {
      JsonSchema compiled = FACTORY.getSchema(schema);
      compiled.initializeValidators();
      return compiled;
    } catch (RuntimeException e) {
      throw new PackageRefusedException(
          CapabilityCodes.MANIFEST_SCHEMA_INVALID, where + " does not compile: " + e.getMessage(), e);
    }
  }

  private static void checkSelfContained(JsonNode node, String pointer) {
    if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        checkSelfContained(node.get(i), pointer + "/" + i);
      }
      return;
    }
    if (!node.isObject()) {
      return;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String key = field.getKey();
      JsonNode value = field.getValue();
      String here = pointer + "/" + key.replace("~", "~0").replace("/", "~1");
      if (REFERENCES.contains(key) && (!value.isTextual() || !value.asText().startsWith("#"))) {
        throw refused(here, "must be a reference inside the document (starting with '#')");
      }
      if (key.equals("$schema") && (!value.isTextual() || !value.asText().equals(DRAFT_2020_12))) {
        throw refused(here, "must be " + DRAFT_2020_12);
      }
      if (key.equals("$id")) {
        throw refused(here, "is not supported: schemas are self-contained");
      }
      checkSelfContained(value, here);
    }
  }

  private static PackageRefusedException refused(String where, String why) {
    return new PackageRefusedException(CapabilityCodes.MANIFEST_SCHEMA_INVALID, where + " " + why);
  }
}
