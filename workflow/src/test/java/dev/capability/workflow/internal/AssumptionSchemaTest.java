package dev.capability.workflow.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.capability.workflow.Assumption;
import dev.capability.workflow.WorkflowException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The published assumption schema describes the members the reader accepts, and agrees with it on whole documents. */
class AssumptionSchemaTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static JsonNode tree;
  private static JsonSchema schema;

  @BeforeAll
  static void readSchema() throws IOException {
    String text = Files.readString(Path.of("..", "docs", "schemas", "assumption.schema.json"));
    tree = MAPPER.readTree(text);
    schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(text);
  }

  private static Set<String> names(JsonNode properties) {
    Set<String> names = new HashSet<>();
    properties.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  void describesExactlyTheMembersTheReaderAccepts() {
    assertThat(names(tree.get("properties"))).isEqualTo(AssumptionJson.MEMBERS);
    assertThat(names(tree.at("/properties/links/properties"))).isEqualTo(AssumptionJson.LINKS);
    assertThat(tree.get("additionalProperties").asBoolean(true)).isFalse();
    assertThat(tree.at("/properties/links/additionalProperties").asBoolean(true)).isFalse();
    assertThat(tree.at("/properties/links/properties/files/maxItems").asInt()).isEqualTo(AssumptionJson.MAX_ITEMS);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"version\": 1, \"id\": \"a\", \"statement\": \"s\", \"confidence\": 0}",
      "{\"version\": 1, \"id\": \"a.1\", \"statement\": \"Calc adds ints\", \"rejectedAlternatives\": [\"longs\"], \"confidence\": 1,"
          + " \"links\": {\"files\": [\"src/main/**\", \"pom.xml\"], \"phases\": [\"impl\"], \"assumptions\": [\"b\"]}}",
  })
  void documentsTheReaderAcceptsValidateAndSoDoesTheirStoredForm(String json) throws IOException {
    assertThat(schema.validate(MAPPER.readTree(json))).isEmpty();
    AssumptionJson.Draft d = AssumptionJson.read(json);
    Assumption a = new Assumption(d.id(), "wp", "impl", d.statement(), d.rejectedAlternatives(), d.confidence(), d.files(), d.phases(),
        d.dependents());
    assertThat(schema.validate(MAPPER.valueToTree(AssumptionJson.toMap(a)))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"id\": \"a\", \"statement\": \"s\", \"confidence\": 0.5}",
      "{\"version\": 2, \"id\": \"a\", \"statement\": \"s\", \"confidence\": 0.5}",
      "{\"version\": 1, \"id\": \"-a\", \"statement\": \"s\", \"confidence\": 0.5}",
      "{\"version\": 1, \"id\": \"a\", \"statement\": \"  \", \"confidence\": 0.5}",
      "{\"version\": 1, \"id\": \"a\", \"statement\": \"s\", \"confidence\": 1.5}",
      "{\"version\": 1, \"id\": \"a\", \"statement\": \"s\", \"confidence\": -0.1}",
      "{\"version\": 1, \"id\": \"a\", \"statement\": \"s\", \"confidence\": \"0.5\"}",
      "{\"version\": 1, \"id\": \"a\", \"statement\": \"s\"}",
      "{\"version\": 1, \"id\": \"a\", \"statement\": \"s\", \"confidence\": 0.5, \"extra\": true}",
      "{\"version\": 1, \"id\": \"a\", \"statement\": \"s\", \"confidence\": 0.5, \"links\": {\"tests\": []}}",
      "{\"version\": 1, \"id\": \"a\", \"statement\": \"s\", \"confidence\": 0.5, \"links\": {\"files\": [\"x\", \"x\"]}}",
  })
  void documentsTheSchemaRefusesTheReaderRefusesToo(String json) throws IOException {
    assertThat(schema.validate(MAPPER.readTree(json))).isNotEmpty();
    assertThat(catchThrowable(() -> AssumptionJson.read(json))).isInstanceOf(WorkflowException.class);
  }
}
