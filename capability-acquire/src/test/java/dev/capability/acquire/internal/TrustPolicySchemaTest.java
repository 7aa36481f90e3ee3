package dev.capability.acquire.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The published trust-policy schema and the policy reader agree. */
class TrustPolicySchemaTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static JsonSchema schema;

  @TempDir Path work;

  @BeforeAll
  static void readSchema() throws IOException {
    schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
        .getSchema(Files.readString(Path.of("..", "docs", "schemas", "trust-policy.schema.json")));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"name\": \"strict-ish\", \"requireSignature\": true, \"requireProvenance\": false}",
      "{\"name\": \"team.v2\", \"requireSignature\": false, \"requireProvenance\": true}",
      "{\"name\": \"identity\", \"requireIdentity\": true, \"requireSignature\": false, \"requireProvenance\": false}",
      "{\"name\": \"sigstore-only\", \"requireSignature\": false, \"requireProvenance\": false, \"requireSigstore\": true}",
  })
  void whatTheSchemaAcceptsTheReaderAccepts(String json) throws IOException {
    assertThat(schema.validate(MAPPER.readTree(json))).isEmpty();
    assertThat(RequirementPolicy.load(Files.writeString(work.resolve("policy.json"), json)).name()).isNotEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"name\": \"lax\", \"requireSignature\": false, \"requireProvenance\": false, \"minimumScore\": 50}",
      "{\"name\": \"lax\", \"requireSignature\": \"no\", \"requireProvenance\": false}",
      "{\"requireSignature\": true, \"requireProvenance\": true}",
      "{\"name\": \"has space\", \"requireSignature\": true, \"requireProvenance\": true}",
      "{\"name\": \"x\", \"requireSignature\": true}",
      "{\"name\": \"x\", \"requireIdentity\": 1, \"requireSignature\": true, \"requireProvenance\": true}",
      "{\"name\": \"x\", \"requireSignature\": true, \"requireProvenance\": true, \"requireSigstore\": \"yes\"}",
  })
  void whatTheSchemaRefusesTheReaderRefuses(String json) throws IOException {
    Path file = Files.writeString(work.resolve("policy.json"), json);

    assertThat(schema.validate(MAPPER.readTree(json))).isNotEmpty();
    assertThatThrownBy(() -> RequirementPolicy.load(file))
        .isInstanceOf(AcquisitionRefusedException.class)
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.TRUST_POLICY_INVALID);
  }
}
