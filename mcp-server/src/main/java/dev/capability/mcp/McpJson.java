package dev.capability.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.mcp.internal.SchemaValidator;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;

/**
 * The JSON mapper and schema validator the server hands the MCP SDK, for an MCP client in the same
 * JVM (an embedder, a test): the SDK's default validator needs a json-schema-validator version the
 * project does not ship, so a client must be given this one.
 */
public final class McpJson {
  private McpJson() {}

  /** A Jackson 2 mapper for the SDK. */
  public static McpJsonMapper mapper() {
    return new JacksonMcpJsonMapper(new ObjectMapper());
  }

  /** A JSON Schema 2020-12 validator for the SDK. */
  public static JsonSchemaValidator schemaValidator() {
    return new SchemaValidator();
  }
}
