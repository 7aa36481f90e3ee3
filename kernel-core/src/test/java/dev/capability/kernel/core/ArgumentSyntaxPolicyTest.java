package dev.capability.kernel.core;

import static dev.capability.kernel.core.PolicyValidationTest.assertRefused;
import static dev.capability.kernel.core.PolicyValidationTest.withRule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.DoubleDashMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.FlagRule;
import dev.capability.kernel.api.policy.KeyValueMode;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.OptionSyntax;
import dev.capability.kernel.api.policy.PolicyExamples;
import dev.capability.kernel.api.policy.SubcommandRule;
import dev.capability.kernel.api.policy.ValueRule;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Option syntaxes and key=value operands from JSON to the normal form, and what validation refuses about them. */
class ArgumentSyntaxPolicyTest {

  private static ExecutionPolicy find(FlagRule rule, String name) {
    return withRule(rules -> rules.syntax(OptionSyntax.FIND).flag(name, rule).operands(OperandRule.any(ValueRule.path())));
  }

  private static PolicyException refusedJson(String arguments) {
    String json = "{\"version\": 1, \"executables\": {\"tool\": {\"name\": \"tool\", \"arguments\": " + arguments + "}}}";
    return catchThrowableOfType(PolicyException.class, () -> ExecutionPolicies.parse(json, "file"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"-exec", "-execdir", "-ok", "-okdir"})
  void aFindRuleCannotListAPrimaryThatReadsACommand(String primary) {
    assertRefused(find(FlagRule.withValue(ValueRule.string()), primary), "POLICY_INVALID",
        "at /executables/tool/arguments/flags/" + primary + ":", "command up to ; or +");
    assertRefused(find(FlagRule.plain(), primary), "POLICY_INVALID", "command up to ; or +");
  }

  @Test
  void aFindRuleListsEachPrimaryWithTheArgumentsFindReads() {
    assertRefused(find(FlagRule.withValue(ValueRule.string()), "-fprintf"), "POLICY_INVALID", "two arguments");
    assertRefused(find(FlagRule.plain(), "-frobnicate"), "POLICY_INVALID", "\"-frobnicate\" is not a leading option or primary");
    assertRefused(find(FlagRule.plain(), "-name"), "POLICY_INVALID", "at /executables/tool/arguments/flags/-name:", "give it a value rule");
    assertRefused(find(FlagRule.withValue(ValueRule.string()), "-print"), "POLICY_INVALID", "takes no value");
    assertRefused(find(FlagRule.plain(), "-D"), "POLICY_INVALID", "one argument after -D");
    assertRefused(find(FlagRule.plain(), "-O"), "POLICY_INVALID", "\"-O\" is not a leading option");

    for (String primary : List.of("-newermt", "-mtime", "-fprint", "-files0-from", "-D")) {
      assertThat(ExecutionPolicies.of(find(FlagRule.withValue(ValueRule.string()), primary)).policy().executables()).hasSize(1);
    }
    for (String primary : List.of("-L", "-O3", "-delete", "-not", "-quit", "--help")) {
      assertThat(ExecutionPolicies.of(find(FlagRule.plain(), primary)).policy().executables()).hasSize(1);
    }
  }

  @Test
  void findAndTarLevelsTakeNoSubcommandsAndFindNeedsNoDoubleDash() {
    SubcommandRule sub = SubcommandRule.of(ArgumentRules.builder().build());
    for (OptionSyntax syntax : List.of(OptionSyntax.FIND, OptionSyntax.TAR)) {
      assertThatThrownBy(() -> ArgumentRules.builder().syntax(syntax).subcommand("run", sub).build())
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("getopt or options-first");
    }
    assertThatThrownBy(() -> ArgumentRules.builder().syntax(OptionSyntax.FIND).operands(OperandRule.any(ValueRule.path()))
        .doubleDash(DoubleDashMode.REQUIRED_BEFORE_OPERANDS).build()).hasMessageContaining("find reads --");

    PolicyException fromFile = refusedJson("{\"syntax\": \"find\", \"operands\": {\"kind\": \"path\"}, \"doubleDash\": \"required-before-operands\"}");
    assertThat(fromFile.code()).isEqualTo("POLICY_INVALID");
    assertThat(fromFile.getMessage()).contains("at /executables/tool/arguments:", "find reads --");
    assertThat(refusedJson("{\"syntax\": \"bsd\"}").getMessage())
        .contains("at /executables/tool/arguments/syntax:", "[getopt, options-first, find, tar]");
  }

  @Test
  void onlyAnOptionsFirstFlagHandsTheRestToRulesOfItsOwn() {
    ArgumentRules rest = ArgumentRules.builder().operands(OperandRule.any(ValueRule.path())).build();
    assertThatThrownBy(() -> ArgumentRules.builder().flag("-m", FlagRule.plain().followedBy(rest)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("only an options-first level");

    PolicyException fromFile = refusedJson("{\"flags\": {\"-m\": {\"arguments\": {}}}}");
    assertThat(fromFile.getMessage()).contains("at /executables/tool/arguments:", "only an options-first level");

    assertRefused(withRule(rules -> rules.syntax(OptionSyntax.OPTIONS_FIRST)
            .flag("-m", FlagRule.plain().followedBy(ArgumentRules.builder().flag("-x y").build()))),
        "POLICY_INVALID", "at /executables/tool/arguments/flags/-m/arguments/flags/-x y:");
  }

  @Test
  void typedKeyValuesNeedNamesAndOnlyTypedOnesHaveThem() {
    assertThatThrownBy(() -> ArgumentRules.builder().keyValueOperands(KeyValueMode.TYPED).build())
        .hasMessageContaining("at least one keyValues entry");
    assertThat(refusedJson("{\"keyValueOperands\": \"refuse\", \"keyValues\": {\"of\": {\"kind\": \"path\"}}}").getMessage())
        .contains("at /executables/tool/arguments:", "only they may have keyValues");
    assertRefused(withRule(rules -> rules.keyValueOperands(KeyValueMode.TYPED).keyValue("o-f", ValueRule.path())),
        "POLICY_INVALID", "at /executables/tool/arguments/keyValues/o-f:");
    assertRefused(withRule(rules -> rules.keyValueOperands(KeyValueMode.TYPED).keyValue("of", ValueRule.writePath())),
        "POLICY_RULE_NEVER_ALLOWS", "at /executables/tool/arguments/keyValues/of/write:");
  }

  @Test
  void anOperandLiteralHoldingEqualsIsNeverAnOperandWhereKeyValuesAreRefusedOrTyped() {
    assertRefused(withRule(rules -> rules.keyValueOperands(KeyValueMode.REFUSE).operands(OperandRule.any(ValueRule.literal("a=b")))),
        "POLICY_RULE_NEVER_ALLOWS", "at /executables/tool/arguments/operands/values:", "\"a=b\"", "keyValueOperands refuse");
    assertThat(ExecutionPolicies.of(withRule(rules -> rules.operands(OperandRule.any(ValueRule.literal("a=b"))))).policy()
        .executables()).hasSize(1);
  }

  @Test
  void aDashLiteralIsReachableWhereTheProgramReadsItAsAnOperand() {
    // Options-first: from the second operand on, -0 is an operand without --.
    assertThat(ExecutionPolicies.of(withRule(rules -> rules.syntax(OptionSyntax.OPTIONS_FIRST)
        .operands(OperandRule.any(ValueRule.string()).withLeading(ValueRule.literal("printenv"), ValueRule.literal("-0")))))
        .policy().executables()).hasSize(1);
    assertRefused(withRule(rules -> rules.syntax(OptionSyntax.OPTIONS_FIRST)
            .operands(OperandRule.any(ValueRule.string()).withLeading(ValueRule.literal("-0")))),
        "POLICY_RULE_NEVER_ALLOWS", "at /executables/tool/arguments/operands/leading/0/values:");
    // find never reads a starting point that starts with -, -- or not.
    assertRefused(withRule(rules -> rules.syntax(OptionSyntax.FIND).operands(OperandRule.any(ValueRule.literal("-x")))
            .doubleDash(DoubleDashMode.OPTIONAL)),
        "POLICY_RULE_NEVER_ALLOWS", "never reads as a starting point");
  }

  @Test
  void theNormalFormWritesSyntaxAndKeyValuesOnlyWhenTheyAreNotTheDefaults() {
    ExecutionPolicy plain = withRule(rules -> rules.flag("-v").operands(OperandRule.any(ValueRule.path())));
    ExecutionPolicy dd = withRule(rules -> rules.syntax(OptionSyntax.TAR).keyValueOperands(KeyValueMode.TYPED)
        .keyValue("count", ValueRule.integer(0, 9)));

    assertThat(ExecutionPolicies.toJson(plain)).doesNotContain("syntax", "keyValue");
    assertThat(ExecutionPolicies.toJson(dd)).contains("\"syntax\" : \"tar\"", "\"keyValueOperands\" : \"typed\"", "\"count\" : {");
    LoadedPolicy reparsed = ExecutionPolicies.parse(ExecutionPolicies.toJson(dd), "file");
    assertThat(reparsed.policy()).isEqualTo(dd);
    assertThat(reparsed.hash()).isEqualTo(ExecutionPolicies.of(dd).hash()).isNotEqualTo(ExecutionPolicies.of(dd.toBuilder()
        .removeExecutable("tool").executable(ExecutableRule.named("tool").arguments(dd.executable("tool").orElseThrow().arguments()
            .orElseThrow().toBuilder().syntax(OptionSyntax.GETOPT).build()).build()).build()).hash());
  }

  @Test
  void examplesBeneathAFlagsOwnRulesAreCheckedWhereTheyStand() {
    ExecutionPolicy policy = ExecutionPolicy.builder().executable(ExecutableRule.named("python3").arguments(ArgumentRules.builder()
        .syntax(OptionSyntax.OPTIONS_FIRST)
        .flag("-m", FlagRule.withValue(ValueRule.literal("tool")).followedBy(ArgumentRules.builder()
            .subcommand("run", new SubcommandRule(ArgumentRules.builder().build(),
                new PolicyExamples(List.of(List.of("python3", "-m", "tool", "run", "x")), List.of())))
            .build()))
        .build()).build()).build();

    assertRefused(policy, "POLICY_EXAMPLE_FAILED",
        "/executables/python3/arguments/flags/-m/arguments/subcommands/run/match/0", "executables.python3.flags.-m.subcommands.run.operands");
  }
}
