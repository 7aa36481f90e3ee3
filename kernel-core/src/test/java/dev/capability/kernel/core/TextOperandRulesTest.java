package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.DoubleDashMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.FlagRule;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.ValueKind;
import dev.capability.kernel.api.policy.ValueRule;
import dev.capability.kernel.core.internal.authority.WriteTarget;
import dev.capability.kernel.core.internal.policy.CommandAuthorizer;
import dev.capability.kernel.core.internal.policy.CommandAuthorizer.Authorization;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@code string} and {@code sed-script} kinds and leading operand rules, from JSON to decision. */
class TextOperandRulesTest {

  private static final String POLICY = """
      {"version": 1, "projectWrites": "scoped", "writeScopes": ["out/**"], "executables": {
        "search": {"name": "search", "arguments": {
          "flags": {"-n": {}, "--glob": {"value": {"kind": "string"}}},
          "operands": {"kind": "path", "minCount": 1, "leading": [{"kind": "string"}]},
          "doubleDash": "optional"}},
        "edit": {"name": "edit", "arguments": {
          "operands": {"kind": "path", "maxCount": 3, "leading": [{"kind": "sed-script"}, {"kind": "path", "write": true}]}}}
      }}""";

  private static final ExecutionPolicy PARSED = ExecutionPolicies.parse(POLICY, "test").policy();

  private static Decision decide(String... argv) {
    return new CommandAuthorizer().authorize(PARSED, List.of(argv), Optional.empty()).decision();
  }

  @Test
  void readsLeadingRulesIntoTheOperandRule() {
    OperandRule search = PARSED.executable("search").orElseThrow().arguments().orElseThrow().operands().orElseThrow();
    OperandRule edit = PARSED.executable("edit").orElseThrow().arguments().orElseThrow().operands().orElseThrow();

    assertThat(search).isEqualTo(OperandRule.atLeast(ValueRule.path(), 1).withLeading(ValueRule.string()));
    assertThat(edit.leading()).containsExactly(ValueRule.sedScript(), ValueRule.writePath());
    assertThat(edit.ruleAt(0).kind()).isEqualTo(ValueKind.SED_SCRIPT);
    assertThat(edit.ruleAt(2)).isEqualTo(ValueRule.path());
  }

  @Test
  void theFirstOperandIsTextAndTheRestArePaths() {
    assertThat(decide("search", "../secret", "src").allowed()).isTrue();
    assertThat(decide("search", "-n", "/etc/passwd", "src", "--glob", "~/*.java").allowed()).isTrue();
    assertThat(decide("search", "x").allowed()).isTrue();

    Decision outside = decide("search", "x", "/etc/passwd");
    assertThat(outside.code()).isEqualTo("OPERAND_INVALID");
    assertThat(outside.rule()).isEqualTo("executables.search.operands");
    assertThat(outside.argIndex()).isEqualTo(OptionalInt.of(2));
  }

  @Test
  void textNeverStartsWithADashExceptAsAnOperandAfterTheDoubleDash() {
    assertThat(decide("search", "--", "-x", "src").allowed()).isTrue();
    assertThat(decide("search", "--glob", "-x", "y").code()).isEqualTo("FLAG_VALUE_INVALID");

    Decision beforeDoubleDash = decide("search", "-x", "src");
    assertThat(beforeDoubleDash.code()).isEqualTo("FLAG_NOT_ALLOWED");
  }

  @ParameterizedTest
  @ValueSource(strings = {"a\u0001b", "a\tb", "a\nb", "a\u202eb", "a\u200bb", "a\u2028b", "\u0085"})
  void textRefusesControlAndInvisibleCharacters(String text) {
    Decision decision = decide("search", text, "src");

    assertThat(decision.code()).isEqualTo("OPERAND_INVALID");
    assertThat(decision.rule()).isEqualTo("executables.search.operands.leading[0]");
    assertThat(decision.message()).contains("control or invisible character");
  }

  @Test
  void textMayBeEmpty() {
    assertThat(decide("search", "", "src").allowed()).isTrue();
  }

  @Test
  void aSedScriptOperandIsParsedAndOnlySelectingScriptsPass() {
    assertThat(decide("edit", "1,20p", "a", "b").allowed()).isTrue();

    Decision executing = decide("edit", "1e id", "a");
    assertThat(executing.code()).isEqualTo("OPERAND_INVALID");
    assertThat(executing.rule()).isEqualTo("executables.edit.operands.leading[0]");
    assertThat(executing.argIndex()).isEqualTo(OptionalInt.of(1));
    assertThat(executing.message()).contains("runs a program");
    assertThat(decide("edit", "s/x/y/w out", "a").message()).contains("writes a file");
  }

  @Test
  void aLeadingPathMarkedWrittenIsAWriteTargetAndTheOthersAreNot() {
    Authorization authorization = new CommandAuthorizer().authorize(PARSED, List.of("edit", "p", "out/x", "in"), Optional.empty());

    assertThat(authorization.decision().allowed()).isTrue();
    assertThat(authorization.writeTargets()).containsExactly(new WriteTarget(2, "out/x"));
    assertThat(decide("edit", "p", "a", "b", "c").code()).isEqualTo("TOO_MANY_OPERANDS");
    assertThat(decide("edit", "p", "../x").rule()).isEqualTo("executables.edit.operands.leading[1]");
  }

  @Test
  void theNormalFormWritesLeadingOnlyWhenThereAreLeadingRules() {
    String json = ExecutionPolicies.toJson(PARSED);

    assertThat(json).contains("\"leading\"", "\"kind\" : \"sed-script\"", "\"kind\" : \"string\"");
    assertThat(ExecutionPolicies.parse(json, "again").policy()).isEqualTo(PARSED);
    assertThat(ExecutionPolicies.parse(json, "again").hash()).isEqualTo(ExecutionPolicies.of(PARSED).hash());

    ExecutionPolicy withoutLeading = ExecutionPolicy.builder()
        .executable(ExecutableRule.named("cat").arguments(ArgumentRules.builder()
            .operands(OperandRule.atLeast(ValueRule.path(), 1)).doubleDash(DoubleDashMode.OPTIONAL).build()).build())
        .build();
    assertThat(ExecutionPolicies.toJson(withoutLeading)).doesNotContain("leading");
    String spelledOut = "{\"version\": 1, \"executables\": {\"cat\": {\"name\": \"cat\", \"arguments\": {"
        + "\"operands\": {\"kind\": \"path\", \"minCount\": 1, \"leading\": []}, \"doubleDash\": \"optional\"}}}}";
    assertThat(ExecutionPolicies.parse(spelledOut, "spelled").hash()).isEqualTo(ExecutionPolicies.of(withoutLeading).hash());
  }

  @Test
  void leadingRulesAreValueRulesReadAsStrictlyAsAnyOther() {
    assertInvalid("{\"kind\": \"path\", \"leading\": {\"kind\": \"string\"}}", "/executables/t/arguments/operands/leading", "an array");
    assertInvalid("{\"kind\": \"path\", \"leading\": [{\"kind\": \"string\", \"minCount\": 1}]}",
        "/executables/t/arguments/operands/leading/0/minCount", "unknown property");
    assertInvalid("{\"kind\": \"path\", \"leading\": [{\"kind\": \"regex\"}]}",
        "/executables/t/arguments/operands/leading/0/kind", "string, sed-script]");
    assertInvalid("{\"kind\": \"path\", \"leading\": [{\"kind\": \"string\", \"write\": true}]}",
        "/executables/t/arguments/operands", "only a path value may be a write target");
    assertInvalid("{\"kind\": \"path\", \"maxCount\": 1, \"leading\": [{\"kind\": \"string\"}, {\"kind\": \"string\"}]}",
        "/executables/t/arguments/operands", "can never apply");
    assertInvalid("{\"kind\": \"path\", \"leading\": [{\"kind\": \"literal\", \"values\": [\"a\\u0001\"]}]}",
        "/executables/t/arguments/operands/leading/0/values", "control or invisible");
    assertInvalid("{\"kind\": \"string\", \"min\": 1}", "/executables/t/arguments/operands", "only an integer value may have min or max");
  }

  @Test
  void onlyAPathMayBeWrittenAndLeadingRulesMustFitTheCount() {
    assertThatThrownBy(() -> new OperandRule(ValueRule.path(), 0, OptionalInt.of(0), List.of(ValueRule.string())))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("can never apply");
    assertThatThrownBy(() -> new ValueRule(ValueKind.SED_SCRIPT, Set.of(), OptionalLong.empty(), OptionalLong.empty(), true)).isInstanceOf(IllegalArgumentException.class);
    assertThat(OperandRule.between(ValueRule.path(), 1, 1).withLeading(ValueRule.string()).leading()).hasSize(1);
    assertThat(FlagRule.withValue(ValueRule.sedScript()).value()).contains(ValueRule.sedScript());
  }

  private static void assertInvalid(String operands, String pointer, String message) {
    String json = "{\"version\": 1, \"executables\": {\"t\": {\"name\": \"t\", \"arguments\": {\"operands\": " + operands + "}}}}";
    PolicyException e = catchThrowableOfType(PolicyException.class, () -> ExecutionPolicies.parse(json, "test"));
    assertThat(e).as(json).isNotNull();
    assertThat(e.code()).as(e.getMessage()).isEqualTo("POLICY_INVALID");
    assertThat(e.getMessage()).contains(pointer, message);
  }
}
