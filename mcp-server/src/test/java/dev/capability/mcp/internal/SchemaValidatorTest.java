package dev.capability.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.json.schema.JsonSchemaValidator.ValidationResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tool arguments against input schemas, with compiled schemas reused by their content. */
class SchemaValidatorTest {
  private static Map<String, Object> requiring(String property) {
    return Map.of("type", "object", "properties", Map.of(property, Map.of("type", "string")),
        "required", List.of(property), "additionalProperties", false);
  }

  @Test
  void aSchemaSeenBeforeStillRefusesWhatItRefusedTheFirstTime() {
    SchemaValidator validator = new SchemaValidator();
    Map<String, Object> schema = requiring("repository");

    ValidationResponse first = validator.validate(schema, Map.of("repository", 7));
    ValidationResponse second = validator.validate(requiring("repository"), Map.of("repository", 7));

    assertThat(first.valid()).isFalse();
    assertThat(second.valid()).isFalse();
    assertThat(second.errorMessage()).isEqualTo(first.errorMessage());
    assertThat(validator.validate(schema, Map.of("repository", "/r")).valid()).isTrue();
  }

  @Test
  void anotherSchemaIsNotAnsweredWithTheOneCompiledBefore() {
    SchemaValidator validator = new SchemaValidator();
    assertThat(validator.validate(requiring("repository"), Map.of("repository", "/r")).valid()).isTrue();

    ValidationResponse other = validator.validate(requiring("package"), Map.of("repository", "/r"));

    assertThat(other.valid()).isFalse();
    assertThat(other.errorMessage()).contains("package");
  }
}
