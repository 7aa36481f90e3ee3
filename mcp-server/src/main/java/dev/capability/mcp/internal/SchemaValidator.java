package dev.capability.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The SDK's schema validator, on the json-schema-validator the rest of the project uses (the SDK's
 * own needs another major version of it). It checks tool arguments against the tool's input
 * schema before a tool runs.
 */
public final class SchemaValidator implements JsonSchemaValidator {
  private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Override
  public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
    try {
      JsonNode content = MAPPER.valueToTree(structuredContent);
      Set<ValidationMessage> messages = FACTORY.getSchema(MAPPER.valueToTree(schema)).validate(content);
      if (messages.isEmpty()) {
        return ValidationResponse.asValid(MAPPER.writeValueAsString(content));
      }
      return ValidationResponse.asInvalid(
          messages.stream().map(ValidationMessage::getMessage).sorted().collect(Collectors.joining("; ")));
    } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
      return ValidationResponse.asInvalid("not valid JSON: " + e.getMessage());
    }
  }
}
