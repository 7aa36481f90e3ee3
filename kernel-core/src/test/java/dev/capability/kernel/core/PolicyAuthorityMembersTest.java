package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.ToolConfigurationPin;
import dev.capability.kernel.api.policy.ValueRule;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The policy members that feed the authority layers: protected paths, git neutralization, tool configuration, write targets. */
class PolicyAuthorityMembersTest {

  private static final String SHA = "0123456789abcdef".repeat(4);

  @Test
  void defaultsProtectTheUsualSuspectsAndNeutralizeGit() {
    ExecutionPolicy policy = ExecutionPolicies.parse("{\"version\": 1}", "test").policy();

    assertThat(policy.protectedPaths()).isEqualTo(ExecutionPolicy.DEFAULT_PROTECTED_PATHS)
        .contains("**/.mvn", ".github/workflows", ".gitlab-ci.yml", "**/.envrc", "**/.bashrc", "**/.zshrc");
    assertThat(policy.neutralizeGit()).isTrue();
  }

  @Test
  void readsProtectedPathsToolConfigurationAndWriteTargets() {
    String json = """
        {
          "version": 1,
          "projectWrites": "scoped",
          "writeScopes": ["target/**", "src/[a-z]*/**"],
          "protectedPaths": [".envrc", "secrets/**"],
          "neutralizeGit": false,
          "executables": {
            "mvn": {
              "name": "mvn",
              "exact": [["-q", "test"]],
              "toolConfiguration": {
                ".mvn/maven.config": "recorded",
                ".mvn/extensions.xml": "absent",
                ".mvn/jvm.config": "%s"
              }
            },
            "fmt": {
              "name": "fmt",
              "arguments": {
                "flags": {"--out": {"value": {"kind": "path", "write": true}}},
                "operands": {"kind": "path", "write": true}
              }
            }
          }
        }
        """.formatted(SHA);

    LoadedPolicy loaded = ExecutionPolicies.parse(json, "test");
    ExecutionPolicy policy = loaded.policy();

    assertThat(policy.protectedPaths()).containsExactly(".envrc", "secrets/**");
    assertThat(policy.neutralizeGit()).isFalse();
    assertThat(policy.executable("mvn").orElseThrow().toolConfiguration()).isEqualTo(Map.of(
        ".mvn/maven.config", ToolConfigurationPin.recorded(),
        ".mvn/extensions.xml", ToolConfigurationPin.absent(),
        ".mvn/jvm.config", ToolConfigurationPin.sha256(SHA)));
    ExecutableRule fmt = policy.executable("fmt").orElseThrow();
    assertThat(fmt.arguments().orElseThrow().operands().orElseThrow().value()).isEqualTo(ValueRule.writePath());
    assertThat(fmt.arguments().orElseThrow().flags().get("--out").value()).contains(ValueRule.writePath());
    assertThat(ExecutionPolicies.parse(ExecutionPolicies.toJson(policy), "again").hash()).isEqualTo(loaded.hash());
  }

  @Test
  void theNewMembersChangeTheHash() {
    ExecutionPolicy base = ExecutionPolicy.builder().executable(ExecutableRule.named("mvn").exact("-q").build()).build();
    String hash = ExecutionPolicies.of(base).hash();

    assertThat(List.of(
            base.toBuilder().neutralizeGit(false).build(),
            base.toBuilder().protectedPaths(List.of()).build(),
            base.toBuilder().removeExecutable("mvn")
                .executable(ExecutableRule.named("mvn").exact("-q").toolConfiguration("a", ToolConfigurationPin.recorded()).build())
                .build()))
        .allSatisfy(changed -> assertThat(ExecutionPolicies.of(changed).hash()).isNotEqualTo(hash));
  }

  @Test
  void refusesAWriteMarkOnALiteral() {
    PolicyException e = catchThrowableOfType(PolicyException.class, () -> ExecutionPolicies.parse("""
        {"version": 1, "executables": {"x": {"name": "x", "arguments": {"operands": {"kind": "literal", "values": ["a"], "write": true}}}}}
        """, "test"));

    assertThat(e.code()).isEqualTo("POLICY_INVALID");
    assertThat(e.getMessage()).contains("/executables/x/arguments/operands", "only a path");
  }

  @Test
  void refusesAToolConfigurationPinThatIsNotAString() {
    PolicyException e = catchThrowableOfType(PolicyException.class, () -> ExecutionPolicies.parse("""
        {"version": 1, "executables": {"x": {"name": "x", "exact": [[]], "toolConfiguration": {"a": true}}}}
        """, "test"));

    assertThat(e.getMessage()).contains("/executables/x/toolConfiguration/a", "expected a string");
  }
}
