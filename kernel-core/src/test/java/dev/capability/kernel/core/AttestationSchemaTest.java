package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real attestations, of a run and of a denial, validate against the published JSON Schema. */
class AttestationSchemaTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path tmp;

  @Test
  void attestationsOfRunsAndDenialsMatchTheSchema() throws Exception {
    JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
        .getSchema(Files.readString(Path.of("../docs/schemas/attestation.schema.json")));
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "echo hi");
    ExecutionPolicy policy = ExecutionPolicy.builder().network(NetworkMode.HOST)
        .executable(ExecutableRule.atPath("tool", tool).exact().build()).build();
    try (CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.of(policy)).hostEnvironment(Map.of()).build()) {
      for (ExecutionRequest request : new ExecutionRequest[] {
          ExecutionRequest.argv(tool.toString()).build(),
          ExecutionRequest.argv(tool.toString(), "extra").build(),
          ExecutionRequest.command("a | b").build()}) {
        JsonNode attestation = JSON.valueToTree(AttestationJson.toMap(kernel.execute(request).attestation()));
        Set<ValidationMessage> errors = schema.validate(attestation);
        assertThat(errors).as("%s", attestation).isEmpty();
      }
    }
  }

  @Test
  void theSchemaRejectsAnAttestationThatCarriesAnExtraField() throws Exception {
    JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
        .getSchema(Files.readString(Path.of("../docs/schemas/attestation.schema.json")));
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "echo hi");
    ExecutionPolicy policy = ExecutionPolicy.builder().network(NetworkMode.HOST)
        .executable(ExecutableRule.atPath("tool", tool).exact().build()).build();
    try (CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.of(policy)).hostEnvironment(Map.of()).build()) {
      Map<String, Object> map = new java.util.LinkedHashMap<>(
          AttestationJson.toMap(kernel.execute(ExecutionRequest.argv(tool.toString()).build()).attestation()));
      map.put("environmentValues", Map.of("SECRET", "x"));
      assertThat(schema.validate(JSON.valueToTree(map))).isNotEmpty();
    }
  }
}
