package dev.capability.integrations.langchain4j.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.internal.JsonSchemaElementUtils;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The agent tools' schemas become LangChain4j schema elements that LangChain4j's own serializer
 * (what its model providers send) writes back as the same JSON Schema.
 */
class SchemasTest {
  private static final String SCHEMA = "{\"type\": \"object\", \"properties\": {"
      + "\"argv\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}, \"description\": \"words\"},"
      + "\"command\": {\"type\": \"string\"},"
      + "\"capability\": {\"type\": \"string\", \"enum\": [\"a\", \"b\"]},"
      + "\"fullSuite\": {\"type\": \"boolean\"},"
      + "\"limit\": {\"type\": \"integer\"},"
      + "\"plan\": {\"type\": \"object\", \"description\": \"the plan\"},"
      + "\"input\": {\"description\": \"any JSON\"}},"
      + "\"required\": [\"argv\"], \"additionalProperties\": false}";

  @Test
  void everyKindOfPropertySurvivesLangChain4jsSerializer() {
    JsonObjectSchema schema = Schemas.objectSchema(SCHEMA);

    Map<String, Object> written = JsonSchemaElementUtils.toMap(schema);

    assertThat(schema.additionalProperties()).isFalse();
    assertThat(written).containsEntry("type", "object");
    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> properties = (Map<String, Map<String, Object>>) written.get("properties");
    assertThat(properties.get("argv")).containsEntry("type", "array").containsEntry("items", Map.of("type", "string"));
    assertThat(properties.get("capability").get("enum")).isEqualTo(List.of("a", "b"));
    assertThat(properties.get("fullSuite")).containsEntry("type", "boolean");
    assertThat(properties.get("limit")).containsEntry("type", "integer");
    assertThat(properties.get("plan")).containsEntry("type", "object");
    assertThat(properties.get("input")).containsEntry("description", "any JSON").doesNotContainKey("type");
    assertThat(written.get("required")).isEqualTo(List.of("argv"));
  }

  @Test
  void aSchemaThatIsNotAnObjectSchemaIsRefused() {
    assertThatThrownBy(() -> Schemas.objectSchema("{\"type\": \"string\"}")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Schemas.objectSchema("not json")).isInstanceOf(IllegalArgumentException.class);
  }
}
