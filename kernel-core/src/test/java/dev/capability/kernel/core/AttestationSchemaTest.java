package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real attestations, of a run and of denials, validate against the published JSON Schema. */
class AttestationSchemaTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path tmp;
  private JsonSchema schema;
  private Path tool;
  private CommandKernel kernel;

  @BeforeEach
  void setUp() throws Exception {
    schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
        .getSchema(Files.readString(Path.of("../docs/schemas/attestation.schema.json")));
    tool = TestFiles.script(tmp.resolve("bin"), "tool", "echo hi");
    // The process backend, the only one on this module's class path, is not a sandbox: the policy opts in.
    ExecutionPolicy policy = ExecutionPolicy.builder().network(NetworkMode.HOST).allowUnisolatedFallback(true)
        .requestEnvironment("TCK_GREETING")
        .executable(ExecutableRule.atPath("tool", tool).exact().build()).build();
    kernel = CommandKernel.builder(ExecutionPolicies.of(policy)).hostEnvironment(Map.of()).build();
  }

  @AfterEach
  void tearDown() {
    kernel.close();
  }

  private Map<String, Object> attestationOf(ExecutionRequest request) {
    return new LinkedHashMap<>(AttestationJson.toMap(kernel.execute(request).attestation()));
  }

  @Test
  void attestationsOfRunsAndDenialsMatchTheSchema() {
    for (ExecutionRequest request : new ExecutionRequest[] {
        ExecutionRequest.argv(tool.toString()).build(),
        ExecutionRequest.argv(tool.toString(), "extra").build(),
        ExecutionRequest.argv(tool.toString()).environment("TCK_GREETING", "hello").build(),
        ExecutionRequest.argv(tool.toString()).environment("UNLISTED", "x").build(),
        ExecutionRequest.command("a | b").build()}) {
      JsonNode attestation = JSON.valueToTree(attestationOf(request));
      assertThat(schema.validate(attestation)).as("%s", attestation).isEmpty();
    }
  }

  @Test
  void attestationsOfRunsAndDenialsReadBackFromTheirJson() {
    for (ExecutionRequest request : new ExecutionRequest[] {
        ExecutionRequest.argv(tool.toString()).build(),
        ExecutionRequest.argv(tool.toString()).environment("TCK_GREETING", "hello").build(),
        ExecutionRequest.command("a | b").build()}) {
      Attestation attestation = kernel.execute(request).attestation();
      String json = CanonicalJson.serialize(AttestationJson.toMap(attestation));

      assertThat(AttestationJson.fromJson(json)).as(json).isEqualTo(attestation);
    }
  }

  @Test
  void requestedNamesAreRecordedApartFromInheritedAndSetOnesAndTheSchemaAllowsNoValues() {
    Map<String, Object> attestation =
        attestationOf(ExecutionRequest.argv(tool.toString()).environment("TCK_GREETING", "hello").build());

    assertThat(attestation.get("environment"))
        .isEqualTo(Map.of("inherited", java.util.List.of(), "set", java.util.List.of(), "requested", java.util.List.of("TCK_GREETING")));
    attestation.put("environment", Map.of("inherited", java.util.List.of(), "set", java.util.List.of(),
        "requested", Map.of("TCK_GREETING", "hello")));
    assertThat(schema.validate(JSON.valueToTree(attestation))).isNotEmpty();
  }

  @Test
  void anAcceptedDenyListNameReachesTheCommandAndTheAttestationMarksIt() {
    Path printer = TestFiles.script(tmp.resolve("bin"), "printer", "printf '%s' \"$MAVEN_OPTS\"");
    ExecutionPolicy policy = ExecutionPolicy.builder().network(NetworkMode.HOST).allowUnisolatedFallback(true)
        .inheritEnvironment("MAVEN_OPTS", "LANG").acceptDeniedEnvironment("MAVEN_OPTS")
        .executable(ExecutableRule.atPath("printer", printer).exact().build()).build();
    try (CommandKernel accepting = CommandKernel.builder(ExecutionPolicies.of(policy))
        .hostEnvironment(Map.of("MAVEN_OPTS", "-Xmx64m", "LANG", "C.UTF-8")).build()) {
      var result = accepting.execute(ExecutionRequest.argv(printer.toString()).build());
      Map<String, Object> attestation = AttestationJson.toMap(result.attestation());

      assertThat(result.stdout().text()).isEqualTo("-Xmx64m");
      assertThat(attestation.get("environment")).isEqualTo(Map.of("inherited", java.util.List.of("LANG", "MAVEN_OPTS"),
          "set", java.util.List.of(), "accepted", java.util.List.of("MAVEN_OPTS")));
      assertThat(schema.validate(JSON.valueToTree(attestation))).isEmpty();
    }
  }

  @Test
  void theSchemaRejectsAnAttestationThatCarriesAnExtraField() {
    Map<String, Object> attestation = attestationOf(ExecutionRequest.argv(tool.toString()).build());
    attestation.put("environmentValues", Map.of("SECRET", "x"));

    assertThat(schema.validate(JSON.valueToTree(attestation))).isNotEmpty();
  }
}
