package dev.capability.integrations.langchain4j.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The agent tools' JSON Schemas as LangChain4j's schema elements. The tools use a small subset
 * (objects of strings, enums, booleans, integers, arrays of strings, free objects, and an untyped
 * {@code input}); anything without a type becomes a {@link JsonRawSchema} carrying the schema as
 * written, so nothing is widened. The executor checks every argument itself whatever the schema
 * the model was shown.
 */
public final class Schemas {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Schemas() {}

  /** The top-level object schema of a tool. */
  public static JsonObjectSchema objectSchema(String schema) {
    JsonNode node;
    try {
      node = JSON.readTree(schema);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("a tool's input schema is not JSON: " + schema, e);
    }
    if (!"object".equals(node.path("type").asText())) {
      throw new IllegalArgumentException("a tool's input schema must be an object schema: " + schema);
    }
    return object(node);
  }

  private static JsonObjectSchema object(JsonNode node) {
    JsonObjectSchema.Builder builder = JsonObjectSchema.builder();
    if (node.has("description")) {
      builder.description(node.get("description").asText());
    }
    JsonNode properties = node.path("properties");
    for (Map.Entry<String, JsonNode> property : (Iterable<Map.Entry<String, JsonNode>>) properties::fields) {
      builder.addProperty(property.getKey(), element(property.getValue()));
    }
    List<String> required = new ArrayList<>();
    node.path("required").forEach(name -> required.add(name.asText()));
    if (!required.isEmpty()) {
      builder.required(required);
    }
    if (node.has("additionalProperties")) {
      builder.additionalProperties(node.get("additionalProperties").asBoolean());
    }
    return builder.build();
  }

  private static JsonSchemaElement element(JsonNode node) {
    String description = node.has("description") ? node.get("description").asText() : null;
    switch (node.path("type").asText()) {
      case "string":
        if (node.has("enum")) {
          List<String> values = new ArrayList<>();
          node.get("enum").forEach(value -> values.add(value.asText()));
          return JsonEnumSchema.builder().description(description).enumValues(values).build();
        }
        return JsonStringSchema.builder().description(description).build();
      case "boolean":
        return JsonBooleanSchema.builder().description(description).build();
      case "integer":
        return JsonIntegerSchema.builder().description(description).build();
      case "array":
        return JsonArraySchema.builder().description(description).items(element(node.path("items"))).build();
      case "object":
        return node.has("properties") ? object(node) : JsonObjectSchema.builder().description(description).build();
      default:
        return JsonRawSchema.from(node.toString());
    }
  }
}
