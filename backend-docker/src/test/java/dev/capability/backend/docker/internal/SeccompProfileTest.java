package dev.capability.backend.docker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.support.SandboxSyscallPolicy;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.Sha256;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Docker form of the project's seccomp policy; what the kernel makes of it is the TCK's. */
class SeccompProfileTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void allowsByDefaultAndDeniesEachCallOfThePolicyWithItsError() throws Exception {
    JsonNode profile = JSON.readTree(SeccompProfile.json(NetworkMode.NONE));

    assertThat(profile.get("defaultAction").asText()).isEqualTo("SCMP_ACT_ALLOW");
    assertThat(profile.get("archMap").findValuesAsText("architecture"))
        .containsExactlyInAnyOrder("SCMP_ARCH_X86_64", "SCMP_ARCH_AARCH64");
    for (SandboxSyscallPolicy.DeniedSyscall denied : SandboxSyscallPolicy.deniedSyscalls()) {
      List<JsonNode> rules = rulesFor(profile, denied.name());
      assertThat(rules).as(denied.name()).hasSize(1);
      assertThat(rules.get(0).get("action").asText()).isEqualTo("SCMP_ACT_ERRNO");
      assertThat(rules.get(0).get("errnoRet").asInt()).isEqualTo(denied.errno());
      assertThat(rules.get(0).get("args")).isEmpty();
    }
    assertThat(rulesFor(profile, "socketcall")).hasSize(1);
  }

  @Test
  void deniesCloneWithAnyNamespaceFlagOneBitPerRule() throws Exception {
    JsonNode profile = JSON.readTree(SeccompProfile.json(NetworkMode.NONE));

    List<Long> masked = new ArrayList<>();
    for (JsonNode rule : rulesFor(profile, "clone")) {
      JsonNode condition = rule.get("args").get(0);
      assertThat(rule.get("args")).hasSize(1);
      assertThat(rule.get("errnoRet").asInt()).isEqualTo(SandboxSyscallPolicy.EPERM);
      assertThat(condition.get("index").asInt()).isZero();
      assertThat(condition.get("op").asText()).isEqualTo("SCMP_CMP_MASKED_EQ");
      assertThat(condition.get("valueTwo").asLong()).isEqualTo(condition.get("value").asLong());
      masked.add(condition.get("value").asLong());
    }
    assertThat(masked).containsExactlyElementsOf(SandboxSyscallPolicy.NAMESPACE_CLONE_FLAGS);
  }

  @Test
  void keepsNetlinkRoutingOnlyForAContainerWithANetwork() throws Exception {
    JsonNode none = JSON.readTree(SeccompProfile.json(NetworkMode.NONE));
    JsonNode host = JSON.readTree(SeccompProfile.json(NetworkMode.HOST));

    assertThat(socketRules(none)).containsExactly("0==40", "0==17", "0==16");
    assertThat(socketRules(host)).containsExactly("0==40", "0==17", "0==16 2!=0");
    assertThat(rulesFor(host, "socket"))
        .allSatisfy(
            rule ->
                assertThat(rule.get("errnoRet").asInt())
                    .isEqualTo(SandboxSyscallPolicy.EAFNOSUPPORT));
  }

  @Test
  void isOneCanonicalTextPerNetworkWithItsDigest() {
    String none = SeccompProfile.json(NetworkMode.NONE);

    assertThat(SeccompProfile.json(NetworkMode.NONE)).isEqualTo(none);
    assertThat(SeccompProfile.sha256(NetworkMode.NONE))
        .isEqualTo(Sha256.hex(none.getBytes(StandardCharsets.UTF_8)));
    assertThat(SeccompProfile.sha256(NetworkMode.HOST))
        .isNotEqualTo(SeccompProfile.sha256(NetworkMode.NONE));
    assertThat(DockerBackend.profileDigests())
        .containsEntry("seccomp-profile", "sha256:" + SeccompProfile.sha256(NetworkMode.NONE))
        .containsEntry(
            "seccomp-profile-network", "sha256:" + SeccompProfile.sha256(NetworkMode.HOST));
  }

  private static List<JsonNode> rulesFor(JsonNode profile, String name) {
    List<JsonNode> rules = new ArrayList<>();
    for (JsonNode rule : profile.get("syscalls")) {
      for (JsonNode ruleName : rule.get("names")) {
        if (ruleName.asText().equals(name)) {
          rules.add(rule);
        }
      }
    }
    return rules;
  }

  private static List<String> socketRules(JsonNode profile) {
    List<String> rules = new ArrayList<>();
    for (JsonNode rule : rulesFor(profile, "socket")) {
      List<String> conditions = new ArrayList<>();
      for (JsonNode condition : rule.get("args")) {
        String op = condition.get("op").asText().equals("SCMP_CMP_EQ") ? "==" : "!=";
        conditions.add(condition.get("index").asInt() + op + condition.get("value").asLong());
      }
      rules.add(String.join(" ", conditions));
    }
    return rules;
  }
}
