package dev.capability.capability.runtime.internal.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.capability.capability.runtime.CapabilityPackages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The published manifest schema accepts what the reader accepts, on the example packages. */
class ManifestSchemaTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path EXAMPLES = Path.of("..", "examples", "capabilities");

  private static JsonSchema schema() throws IOException {
    return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
        .getSchema(Files.readString(Path.of("..", "docs", "schemas", "capability-manifest.schema.json")));
  }

  @Test
  void everyExampleManifestTheReaderAcceptsIsValid() throws IOException {
    JsonSchema schema = schema();
    for (String example : List.of("hello", "word-count", "notes")) {
      Path pkg = EXAMPLES.resolve(example);
      CapabilityPackages.open(pkg);

      assertThat(schema.validate(JSON.readTree(pkg.resolve("capability.json").toFile()))).as(example).isEmpty();
    }
  }

  @Test
  void aModulePathWithADotSegmentAfterThePrefixIsInvalid() throws IOException {
    JsonNode manifest = JSON.readTree(EXAMPLES.resolve("hello/capability.json").toFile());
    String integrity = manifest.get("modules").elements().next().asText();
    ObjectNode escaping = manifest.deepCopy();
    ((ObjectNode) escaping.get("entry")).put("module", "./lib/../../x.jar");
    escaping.putObject("modules").put("./lib/../../x.jar", integrity);

    assertThat(schema().validate(escaping)).isNotEmpty();
  }
}
