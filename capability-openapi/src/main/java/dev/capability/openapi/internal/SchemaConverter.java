package dev.capability.openapi.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capability.capability.runtime.support.Printable;
import dev.capability.openapi.OpenApiCodes;
import dev.capability.openapi.OpenApiRefusedException;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns an OpenAPI schema object into a self-contained JSON Schema (draft 2020-12): references
 * are inlined, only an allow-list of validation keywords is kept, and OpenAPI 3.0's
 * {@code nullable} and boolean {@code exclusiveMinimum}/{@code exclusiveMaximum} are translated.
 * {@code pattern} is dropped: a regular expression from an untrusted document would run in the
 * host on every input (catastrophic backtracking). Every node produced counts against a budget,
 * so a few references that fan out cannot expand into millions of nodes.
 */
final class SchemaConverter {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Set<String> TYPES = Set.of("null", "boolean", "object", "array", "number", "string", "integer");
  private static final Set<String> SUBSCHEMA_LISTS = Set.of("allOf", "anyOf", "oneOf");
  private static final Set<String> NUMBERS =
      Set.of("minimum", "maximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties");
  private static final Set<String> TEXTS = Set.of("format", "title", "description");
  private static final Set<String> VALUES = Set.of("enum", "const", "default");

  private final References references;
  private final int maxNodes;
  private int nodes;

  SchemaConverter(References references, int maxNodes) {
    this.references = references;
    this.maxNodes = maxNodes;
  }

  /** Starts a new budget, for the next operation. */
  void resetBudget() {
    nodes = 0;
  }

  JsonNode convert(JsonNode schema, String where) {
    count(1, where);
    if (schema.isBoolean()) {
      return schema;
    }
    if (!schema.isObject()) {
      throw invalid(where, "must be a schema object");
    }
    if (schema.has("$ref")) {
      JsonNode target = references.enter(schema.get("$ref"), where);
      try {
        return convert(target, schema.get("$ref").asText());
      } finally {
        references.leave();
      }
    }
    ObjectNode out = NODES.objectNode();
    for (Iterator<Map.Entry<String, JsonNode>> it = schema.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String key = field.getKey();
      JsonNode value = field.getValue();
      String here = where + "/" + Printable.escaped(key);
      if (key.equals("type")) {
        out.set(key, type(value, here));
      } else if (key.equals("properties")) {
        if (!value.isObject()) {
          throw invalid(here, "must be an object");
        }
        ObjectNode properties = out.putObject("properties");
        for (Iterator<Map.Entry<String, JsonNode>> p = value.fields(); p.hasNext(); ) {
          Map.Entry<String, JsonNode> property = p.next();
          properties.set(property.getKey(), convert(property.getValue(), here + "/" + Printable.escaped(property.getKey())));
        }
      } else if (key.equals("items") || key.equals("not")) {
        out.set(key, convert(value, here));
      } else if (key.equals("additionalProperties")) {
        out.set(key, value.isBoolean() ? value : convert(value, here));
      } else if (SUBSCHEMA_LISTS.contains(key)) {
        if (!value.isArray() || value.isEmpty()) {
          throw invalid(here, "must be a non-empty array of schemas");
        }
        ArrayNode list = out.putArray(key);
        for (int i = 0; i < value.size(); i++) {
          list.add(convert(value.get(i), here + "/" + i));
        }
      } else if (key.equals("required")) {
        if (!value.isArray()) {
          throw invalid(here, "must be an array of names");
        }
        for (JsonNode name : value) {
          if (!name.isTextual()) {
            throw invalid(here, "must be an array of names");
          }
        }
        count(value.size(), here);
        out.set(key, value.deepCopy());
      } else if (NUMBERS.contains(key)) {
        if (!value.isNumber()) {
          throw invalid(here, "must be a number");
        }
        out.set(key, value);
      } else if (key.equals("exclusiveMinimum") || key.equals("exclusiveMaximum")) {
        if (!value.isNumber() && !value.isBoolean()) {
          throw invalid(here, "must be a number or (OpenAPI 3.0) a boolean");
        }
        if (value.isNumber()) {
          out.set(key, value);
        }
      } else if (key.equals("uniqueItems")) {
        if (!value.isBoolean()) {
          throw invalid(here, "must be a boolean");
        }
        out.set(key, value);
      } else if (TEXTS.contains(key)) {
        if (!value.isTextual()) {
          throw invalid(here, "must be a string");
        }
        out.set(key, value);
      } else if (VALUES.contains(key)) {
        count(size(value), here);
        out.set(key, value.deepCopy());
      }
      // anything else (pattern, example, xml, discriminator, readOnly, x-...) describes, never validates: dropped
    }
    translateOpenApi30(schema, out, where);
    return out;
  }

  private void translateOpenApi30(JsonNode schema, ObjectNode out, String where) {
    for (String bound : new String[] {"Minimum", "Maximum"}) {
      JsonNode exclusive = schema.get("exclusive" + bound);
      String inclusive = bound.toLowerCase(Locale.ROOT);
      if (exclusive != null && exclusive.isBoolean() && exclusive.asBoolean()) {
        if (!out.has(inclusive)) {
          throw invalid(where + "/exclusive" + bound, "is true without " + inclusive);
        }
        out.set("exclusive" + bound, out.remove(inclusive));
      }
    }
    JsonNode nullable = schema.get("nullable");
    if (nullable != null && nullable.isBoolean() && nullable.asBoolean() && out.has("type") && out.get("type").isTextual()) {
      ArrayNode types = NODES.arrayNode();
      types.add(out.get("type").asText());
      types.add("null");
      out.set("type", types);
    }
  }

  private JsonNode type(JsonNode value, String where) {
    if (value.isTextual() && TYPES.contains(value.asText())) {
      return value;
    }
    if (value.isArray() && !value.isEmpty()) {
      for (JsonNode item : value) {
        if (!item.isTextual() || !TYPES.contains(item.asText())) {
          throw invalid(where, "lists an unknown type");
        }
      }
      return value.deepCopy();
    }
    throw invalid(where, "must be one of " + TYPES + " or a list of them");
  }

  private void count(int added, String where) {
    nodes += added;
    if (nodes > maxNodes) {
      throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_SCHEMA_TOO_LARGE,
          where + ": the operation's schemas expand to more than " + maxNodes + " nodes");
    }
  }

  private static int size(JsonNode value) {
    int total = 1;
    for (JsonNode child : value) {
      total += size(child);
    }
    return total;
  }

  private static OpenApiRefusedException invalid(String where, String why) {
    return new OpenApiRefusedException(OpenApiCodes.OPENAPI_INVALID, where + " " + why);
  }
}
