package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.policy.PolicyCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * awk's program and a sed script that is not a checked {@code sed-script} are code: a typed rule
 * that lets a request choose them loads only when the operator accepts arbitrary code.
 */
class CodeRunningToolsTest {

  private static String policy(String id, String rule) {
    return """
        {"version": 1, "projectWrites": "read-only", "executables": {"%s": %s}}""".formatted(id, rule);
  }

  private static PolicyException refusal(String id, String rule) {
    return catchThrowableOfType(PolicyException.class, () -> ExecutionPolicies.parse(policy(id, rule), "test"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"awk", "gawk", "mawk", "nawk"})
  void anAwkRuleWhoseProgramTheRequestChoosesIsRefusedAtLoad(String name) {
    // Under this rule, awk 'BEGIN{system("sh")}' would pass as "a string and some paths".
    PolicyException e = refusal(name, """
        {"name": "%s", "arguments": {"operands": {"kind": "path", "minCount": 1, "leading": [{"kind": "string"}]}}}"""
        .formatted(name));

    assertThat(e).isNotNull();
    assertThat(e.code()).isEqualTo(PolicyCodes.POLICY_ARBITRARY_CODE_NOT_ACCEPTED);
    assertThat(e.getMessage()).contains("/executables/" + name).contains("its first operand").contains("\"arbitraryCode\": true");
  }

  @Test
  void anAwkRuleByPathIsJudgedByItsFileName() {
    PolicyException e = refusal("text", """
        {"path": "/usr/bin/gawk", "arguments": {"operands": {"kind": "string"}}}""");

    assertThat(e.code()).isEqualTo(PolicyCodes.POLICY_ARBITRARY_CODE_NOT_ACCEPTED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"-f", "--file", "-i", "-l", "-E"})
  void anAwkFlagThatLoadsCodeFromAFileIsCodeEvenWithAFixedName(String flag) {
    PolicyException e = refusal("awk", """
        {"name": "awk", "arguments": {"flags": {"%s": {"value": {"kind": "literal", "values": ["report.awk"]}}},
          "operands": {"kind": "literal", "values": ["data.txt"]}}}""".formatted(flag));

    assertThat(e.code()).isEqualTo(PolicyCodes.POLICY_ARBITRARY_CODE_NOT_ACCEPTED);
    assertThat(e.getMessage()).contains("the file named by " + flag);
  }

  @Test
  void anAwkProgramTheOperatorFixedLoads() {
    ExecutionPolicies.parse(policy("awk", """
        {"name": "awk", "exact": [["{print $1}", "data.txt"]],
         "arguments": {"operands": {"kind": "path", "minCount": 2, "leading": [{"kind": "literal", "values": ["{print NF}"]}]}}}"""),
        "test");
  }

  @Test
  void theOperatorMayAcceptArbitraryCodeAndTheHashedNormalFormSaysSo() {
    String accepting = policy("awk", """
        {"name": "awk", "arbitraryCode": true, "arguments": {"operands": {"kind": "string"}}}""");
    String plain = policy("awk", """
        {"name": "awk", "exact": [["{print}"]]}""");

    assertThat(ExecutionPolicies.parse(accepting, "test").policy().executable("awk").orElseThrow().acceptsArbitraryCode()).isTrue();
    assertThat(ExecutionPolicies.toJson(ExecutionPolicies.parse(accepting, "test").policy())).containsPattern("\"arbitraryCode\"\\s*:\\s*true");
    assertThat(ExecutionPolicies.toJson(ExecutionPolicies.parse(plain, "test").policy())).doesNotContain("arbitraryCode");
    assertThat(ExecutionPolicies.parse(plain, "test").policy().executable("awk").orElseThrow().acceptsArbitraryCode()).isFalse();
  }

  @Test
  void aSedScriptOfTheStringKindIsCodeButTheCheckedKindIsNot() {
    PolicyException e = refusal("sed", """
        {"name": "sed", "arguments": {"operands": {"kind": "path", "leading": [{"kind": "string"}]}}}""");
    assertThat(e.code()).isEqualTo(PolicyCodes.POLICY_ARBITRARY_CODE_NOT_ACCEPTED);

    ExecutionPolicies.parse(policy("sed", """
        {"name": "sed", "arguments": {"flags": {"-e": {"value": {"kind": "sed-script"}}},
          "operands": {"kind": "path", "leading": [{"kind": "sed-script"}]}}}"""), "test");
  }

  @Test
  void sedWithAScriptFileOrAnUncheckedExpressionIsCode() {
    assertThat(refusal("sed", """
        {"name": "sed", "arguments": {"flags": {"-f": {"value": {"kind": "path"}}}, "operands": {"kind": "path"}}}""").code())
        .isEqualTo(PolicyCodes.POLICY_ARBITRARY_CODE_NOT_ACCEPTED);
    assertThat(refusal("sed", """
        {"name": "sed", "arguments": {"flags": {"--expression": {"value": {"kind": "string"}}}, "operands": {"kind": "literal", "values": ["a"]}}}""")
        .getMessage()).contains("the value of --expression");
  }

  @Test
  void otherProgramsAreNotJudgedHere() {
    ExecutionPolicies.parse(policy("grep", """
        {"name": "grep", "arguments": {"operands": {"kind": "path", "leading": [{"kind": "string"}]}}}"""), "test");
  }
}
