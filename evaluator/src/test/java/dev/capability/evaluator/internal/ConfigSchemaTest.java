package dev.capability.evaluator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The published schema describes exactly the members the reader accepts, and agrees with it on whole documents. */
class ConfigSchemaTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static JsonNode tree;
  private static JsonSchema schema;

  private static final String CONFIG = """
      {"version": 1, "repository": "/srv/repo", "policy": "/etc/capability/policy.json", "outputDirectory": "/srv/evaluations/x",
       "candidates": ["main", {"name": "agent A", "ref": "agent/a"}], "baseline": "main",
       "commands": [{"name": "unit tests", "command": "mvn -q test", "timeoutSeconds": 600, "maxOutputBytes": 1048576},
                    {"argv": ["grep", "-q", "PASS", "status.txt"]}],
       "backend": "bwrap", "requiredCapabilities": ["PID_NAMESPACE"]}""";

  @BeforeAll
  static void readSchema() throws IOException {
    String text = Files.readString(Path.of("..", "docs", "schemas", "evaluation-config.schema.json"));
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
    assertThat(names(tree.get("properties"))).isEqualTo(ConfigReader.MEMBERS);
    assertThat(names(tree.at("/properties/commands/items/properties"))).isEqualTo(ConfigReader.COMMAND_MEMBERS);
    assertThat(names(tree.at("/properties/candidates/items/oneOf/1/properties"))).isEqualTo(ConfigReader.CANDIDATE_MEMBERS);
    Set<String> required = new HashSet<>();
    tree.get("required").forEach(n -> required.add(n.asText()));
    assertThat(required).isEqualTo(ConfigReader.REQUIRED);
    assertThat(tree.at("/properties/commands/items/properties/timeoutSeconds/maximum").asLong())
        .isEqualTo(ConfigReader.MAX_TIMEOUT_SECONDS);
  }

  @Test
  void acceptsAWholeConfigurationAndRefusesWhatTheReaderRefuses() throws IOException {
    assertThat(schema.validate(MAPPER.readTree(CONFIG))).isEmpty();
    assertThat(schema.validate(MAPPER.readTree(CONFIG.replace("\"version\": 1", "\"version\": 2")))).isNotEmpty();
    assertThat(schema.validate(MAPPER.readTree(CONFIG.replace("\"/srv/repo\"", "\"repo\"")))).isNotEmpty();
    assertThat(schema.validate(MAPPER.readTree(CONFIG.replace("{\"argv\": [\"grep\", \"-q\", \"PASS\", \"status.txt\"]}",
        "{\"argv\": [\"grep\"], \"command\": \"grep\"}")))).isNotEmpty();
    assertThat(schema.validate(MAPPER.readTree(CONFIG.replace("\"main\", {", "\"-main\", {")))).isNotEmpty();
  }
}
