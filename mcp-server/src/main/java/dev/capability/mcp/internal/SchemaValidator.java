package dev.capability.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The SDK's schema validator, on the json-schema-validator the rest of the project uses (the SDK's
 * own needs another major version of it). It checks tool arguments against the tool's input
 * schema before a tool runs.
 */
public final class SchemaValidator implements JsonSchemaValidator {
  private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int MAX_SCHEMAS = 256;

  /**
   * Compiled schemas by their JSON: compiling one costs far more than validating against it, and
   * the SDK asks for the same few (each tool's input schema) on every call.
   */
  private final ConcurrentHashMap<String, JsonSchema> compiled = new ConcurrentHashMap<>();

  @Override
  public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
    try {
      JsonNode content = MAPPER.valueToTree(structuredContent);
      Set<ValidationMessage> messages = compiled(schema).validate(content);
      if (messages.isEmpty()) {
        return ValidationResponse.asValid(MAPPER.writeValueAsString(content));
      }
      return ValidationResponse.asInvalid(
          messages.stream().map(ValidationMessage::getMessage).sorted().collect(Collectors.joining("; ")));
    } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
      return ValidationResponse.asInvalid("not valid JSON: " + e.getMessage());
    }
  }

  private JsonSchema compiled(Map<String, Object> schema) throws com.fasterxml.jackson.core.JsonProcessingException {
    String key = MAPPER.writeValueAsString(schema);
    JsonSchema known = compiled.get(key);
    if (known != null) {
      return known;
    }
    JsonSchema compiledSchema = FACTORY.getSchema(MAPPER.readTree(key));
    compiledSchema.initializeValidators();
    if (compiled.size() >= MAX_SCHEMAS) {
      compiled.clear();
    }
    compiled.put(key, compiledSchema);
    return compiledSchema;
  }
}
