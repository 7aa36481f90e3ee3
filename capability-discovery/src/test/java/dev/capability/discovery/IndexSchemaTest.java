package dev.capability.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The published schema and the parser agree on what a valid index is. */
class IndexSchemaTest {
  private static final Path SCHEMA = Path.of("..", "docs", "schemas", "capability-index.schema.json");
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonSchema schema() throws IOException {
    return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(JSON.readTree(Files.readString(SCHEMA)));
  }

  private static final String GOOD = """
      {"format": "capability-index/1",
       "entries": [{"coordinates": "org.example:notes:1.2.0:cap@zip", "name": "notes", "description": "Keeps notes",
                    "effects": {"filesystem.write": ["notes"], "network.connect": ["api.example.org:443"]},
                    "claims": {"verified": true}}],
       "links": ["https://other.example.org/index.json", "sub/index.json"]}
      """;

  @Test
  void aDocumentTheParserAcceptsIsValidAgainstThePublishedSchema() throws IOException {
    IndexDocument.parse(GOOD.getBytes(StandardCharsets.UTF_8), URI.create("https://index.example.org/"));
    assertThat(schema().validate(JSON.readTree(GOOD))).isEmpty();
  }

  @Test
  void unknownMembersAreRefusedByBoth() throws IOException {
    String bad = GOOD.replace("\"claims\"", "\"verified\": true, \"claims\"");
    assertThat(schema().validate(JSON.readTree(bad))).isNotEmpty();
    assertThatThrownBy(() -> IndexDocument.parse(bad.getBytes(StandardCharsets.UTF_8), URI.create("https://index.example.org/")))
        .isInstanceOf(IndexRefusedException.class);
  }
}
