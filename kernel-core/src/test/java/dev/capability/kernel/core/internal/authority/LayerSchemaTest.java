package dev.capability.kernel.core.internal.authority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The published layer schema describes the members the reader accepts, and agrees with it on whole documents. */
class LayerSchemaTest {

  private static final Path SCHEMA = Path.of("..", "docs", "schemas", "authority-layer.schema.json");
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static JsonNode schemaTree;
  private static JsonSchema schema;

  @BeforeAll
  static void readSchema() throws IOException {
    String text = Files.readString(SCHEMA);
    schemaTree = MAPPER.readTree(text);
    schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(text);
  }

  @Test
  void describesExactlyTheMembersTheReaderAccepts() {
    Set<String> names = new HashSet<>();
    schemaTree.get("properties").fieldNames().forEachRemaining(names::add);

    assertThat(names).isEqualTo(LayerJson.MEMBERS);
    assertThat(schemaTree.get("additionalProperties").asBoolean(true)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"version\": 1, \"kind\": \"phase\"}",
      "{\"version\": 1, \"kind\": \"phase\", \"description\": \"green\", \"executables\": [\"mvn\", \"git\"], \"network\": \"none\","
          + " \"projectWrites\": \"scoped\", \"writeScopes\": [\"src/test/**\", \"target/**\", \"src/[a-z]*.txt\"]}",
      "{\"version\": 1, \"kind\": \"phase\", \"projectWrites\": \"read-only\", \"executables\": []}",
  })
  void documentsTheReaderAcceptsValidate(String json) throws IOException {
    assertThat(schema.validate(MAPPER.readTree(json))).isEmpty();
    assertThat(LayerJson.read(Kind.PHASE, json, "test").kind()).isEqualTo(Kind.PHASE);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"kind\": \"phase\"}",
      "{\"version\": 2, \"kind\": \"phase\"}",
      "{\"version\": 1, \"kind\": \"operator\"}",
      "{\"version\": 1, \"kind\": \"phase\", \"extra\": 1}",
      "{\"version\": 1, \"kind\": \"phase\", \"network\": \"internet\"}",
      "{\"version\": 1, \"kind\": \"phase\", \"writeScopes\": []}",
      "{\"version\": 1, \"kind\": \"phase\", \"writeScopes\": [\"/abs\"]}",
      "{\"version\": 1, \"kind\": \"phase\", \"writeScopes\": [\"a//b\"]}",
      "{\"version\": 1, \"kind\": \"phase\", \"writeScopes\": [\"{a,b}\"]}",
      "{\"version\": 1, \"kind\": \"phase\", \"writeScopes\": [\"~/x\"]}",
      "{\"version\": 1, \"kind\": \"phase\", \"executables\": [\"git\", \"git\"]}",
      "{\"version\": 1, \"kind\": \"phase\", \"projectWrites\": \"read-only\", \"writeScopes\": [\"a\"]}",
  })
  void documentsTheSchemaRefusesTheReaderRefusesToo(String json) throws IOException {
    assertThat(schema.validate(MAPPER.readTree(json))).isNotEmpty();
    assertThat(catchThrowable(() -> LayerJson.read(Kind.PHASE, json, "test"))).isNotNull();
  }
}
