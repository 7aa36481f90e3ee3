package dev.capability.capability.runtime.internal.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.capability.capability.runtime.EffectKind;
import dev.capability.capability.runtime.EffectPolicies;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The published schema of policy files describes what the reader accepts, and the example follows it. */
class EffectPolicySchemaTest {
  private static final Path SCHEMA = Path.of("..", "docs", "schemas", "effect-policy.schema.json");
  private static final Path EXAMPLE = Path.of("..", "examples", "policies", "word-count.json");

  private static Set<String> properties(JsonNode node) {
    Set<String> names = new HashSet<>();
    node.get("properties").fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  void describesExactlyTheMembersAndEffectsTheReaderAccepts() throws IOException {
    JsonNode schema = new ObjectMapper().readTree(SCHEMA.toFile());
    JsonNode grant = schema.get("properties").get("grants").get("items");

    assertThat(properties(schema)).isEqualTo(PolicyFileParser.TOP);
    assertThat(properties(grant)).isEqualTo(PolicyFileParser.GRANT);
    assertThat(schema.get("additionalProperties").asBoolean(true)).isFalse();
    assertThat(grant.get("additionalProperties").asBoolean(true)).isFalse();
    Set<String> listed = new HashSet<>();
    grant.get("properties").get("effect").get("enum").forEach(name -> listed.add(name.asText()));
    assertThat(listed).isEqualTo(Arrays.stream(EffectKind.values()).map(EffectKind::id).collect(Collectors.toSet()));
  }

  @Test
  void theExamplePolicyIsValidAndLoads(@TempDir Path work) throws IOException {
    JsonSchema schema =
        JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Files.readString(SCHEMA));

    assertThat(schema.validate(new ObjectMapper().readTree(EXAMPLE.toFile()))).isEmpty();
    // A copy with fixed permissions: a clone made under umask 002 leaves the example group-writable.
    Path copy = Files.copy(EXAMPLE, work.resolve("policy.json"));
    Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
    assertThat(EffectPolicies.load(copy).description()).containsEntry("policy", "grant-list");
  }
}
