package dev.capability.kernel.core.internal.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.PolicyCodes;
import dev.capability.kernel.core.ExecutionPolicies;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code backendVersions}: read, hashed only when present, and refused in another form. */
class BackendVersionsPolicyTest {
  @Test
  void readsTheMinimumPerBackendAndComponent() {
    ExecutionPolicy policy = PolicyJsonReader.read(
        "{\"version\": 1, \"backendVersions\": {\"docker\": {\"daemon\": \"20.10\", \"runc\": \"1.1\"}, \"bwrap\": {\"bwrap\": \"0.8\"}}}");

    assertThat(policy.minimumBackendVersions())
        .isEqualTo(Map.of("docker", Map.of("daemon", "20.10", "runc", "1.1"), "bwrap", Map.of("bwrap", "0.8")));
    assertThat(PolicyNormalForm.tree(policy)).containsKey("backendVersions");
    assertThat(PolicyJsonReader.read(PolicyNormalForm.json(policy))).isEqualTo(policy);
  }

  @Test
  void aPolicyWithoutMinimumsKeepsItsHash() {
    ExecutionPolicy without = ExecutionPolicy.builder().build();
    ExecutionPolicy with = without.toBuilder().minimumBackendVersion("docker", "daemon", "20.10").build();

    assertThat(PolicyNormalForm.tree(without)).doesNotContainKey("backendVersions");
    assertThat(ExecutionPolicies.of(with).hash()).isNotEqualTo(ExecutionPolicies.of(without).hash());
    assertThat(with.toBuilder().build()).isEqualTo(with);
  }

  @Test
  void refusesAVersionThatIsNotDotSeparatedNumbers() {
    assertThatThrownBy(() -> PolicyJsonReader.read("{\"version\": 1, \"backendVersions\": {\"docker\": {\"daemon\": \">=20.10\"}}}"))
        .isInstanceOfSatisfying(PolicyException.class, e -> assertThat(e.code()).isEqualTo(PolicyCodes.POLICY_INVALID))
        .hasMessageContaining("/backendVersions/docker/daemon")
        .hasMessageContaining("one to four dot-separated numbers");
    assertThatThrownBy(() -> PolicyJsonReader.read("{\"version\": 1, \"backendVersions\": {\"Docker\": {\"daemon\": \"1\"}}}"))
        .isInstanceOf(PolicyException.class)
        .hasMessageContaining("lower-case letters");
    assertThatThrownBy(() -> PolicyJsonReader.read("{\"version\": 1, \"backendVersions\": {\"docker\": {\"daemon\": 20}}}"))
        .isInstanceOf(PolicyException.class)
        .hasMessageContaining("/backendVersions/docker/daemon");
  }
}
