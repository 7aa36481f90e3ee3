package dev.capability.junit5.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.junit5.CapabilitySandbox;
import dev.capability.junit5.SandboxRepository;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.kernel.core.CommandKernel;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which violations fail a test: a write outside the scope does; a refused egress attempt, which the
 * attestation lists as a violation too, does not. The attestations are a real run's, with their
 * violations replaced in the JSON form the ledger keeps.
 */
@CapabilitySandbox(policy = "policies/touch-src.json", failOnWriteViolations = false)
class WriteScopeViolationsTest {
  private static final Map<String, Object> WRITE = Map.of(
      "path", "src/notes.md", "kind", "CREATED", "layer", "operator", "rule", "writeScopes", "reason", "outside the write scope");
  private static final Map<String, Object> EGRESS = Map.of(
      "path", "other.test:443", "kind", "EGRESS_NOT_GRANTED", "layer", "operator", "rule", "egress.allow", "reason", "not granted");

  private Attestation real;

  @BeforeEach
  void run(CommandKernel kernel, @SandboxRepository Path repository) {
    real = kernel.execute(ExecutionRequest.argv("touch", "src/allowed.txt").repository(repository).build()).attestation();
  }

  @Test
  void aRefusedEgressAttemptAloneFailsNothing() {
    assertThat(WriteScopeViolations.message(List.of(withViolations(List.of(EGRESS))))).isEmpty();
  }

  @Test
  void aWriteOutsideTheScopeFailsAndTheMessageNamesOnlyTheWrite() {
    assertThat(WriteScopeViolations.message(List.of(real, withViolations(List.of(EGRESS, WRITE)))))
        .hasValueSatisfying(message -> assertThat(message)
            .startsWith("1 execution of this test changed paths outside the write scope:")
            .contains("src/notes.md (CREATED): layer operator rule writeScopes: outside the write scope")
            .doesNotContain("other.test:443 (EGRESS_NOT_GRANTED)"));
  }

  private Attestation withViolations(List<Map<String, Object>> violations) {
    Map<String, Object> json = new LinkedHashMap<>(AttestationJson.toMap(real));
    json.put("violations", violations);
    return AttestationJson.fromJson(CanonicalJson.serialize(json));
  }
}
