package dev.capability.kernel.core.internal.policy;

import static dev.capability.kernel.api.policy.PolicyCodes.ARGV_INVALID;
import static dev.capability.kernel.api.policy.PolicyCodes.ARGV_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.DOUBLE_DASH_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.EXECUTABLE_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.FLAG_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.FLAG_VALUE_INVALID;
import static dev.capability.kernel.api.policy.PolicyCodes.NOOP_COMMAND;
import static dev.capability.kernel.api.policy.PolicyCodes.OPERAND_INVALID;
import static dev.capability.kernel.api.policy.PolicyCodes.OPERAND_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.SUBCOMMAND_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.TOO_FEW_OPERANDS;
import static dev.capability.kernel.api.policy.PolicyCodes.TOO_MANY_OPERANDS;
import static dev.capability.kernel.api.policy.PolicyCodes.WINDOWS_SHIM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.DoubleDashMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.FlagRule;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.SubcommandRule;
import dev.capability.kernel.api.policy.ValueRule;
import dev.capability.kernel.core.internal.policy.CommandAuthorizer.Authorization;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CommandAuthorizerTest {

  private static final ExecutionPolicy POLICY = ExecutionPolicy.builder()
      .executable(ExecutableRule.named("tool")
          .arguments(ArgumentRules.builder()
              .flag("-v")
              .flag("--verbose")
              .flag("--depth", FlagRule.withValue(ValueRule.integer(0, 10)))
              .flag("-d", FlagRule.withValue(ValueRule.integer(0, 10)))
              .flag("--format", FlagRule.withValue(ValueRule.literal("short", "long")))
              .flag("--out", FlagRule.withValue(ValueRule.path()))
              .flag("--limit", FlagRule.withValue(ValueRule.integer()))
              .operands(OperandRule.between(ValueRule.path(), 1, 2))
              .doubleDash(DoubleDashMode.OPTIONAL)
              .build())
          .build())
      .executable(ExecutableRule.named("vcs")
          .arguments(ArgumentRules.builder()
              .flag("--quiet")
              .subcommand("show", SubcommandRule.of(ArgumentRules.builder()
                  .flag("--stat")
                  .operands(OperandRule.any(ValueRule.literal("HEAD", "main")))
                  .build()))
              .subcommand("diff", SubcommandRule.of(ArgumentRules.builder()
                  .operands(OperandRule.any(ValueRule.path()))
                  .doubleDash(DoubleDashMode.REQUIRED_BEFORE_OPERANDS)
                  .build()))
              .subcommand("remote", SubcommandRule.of(ArgumentRules.builder()
                  .subcommand("list", SubcommandRule.of(ArgumentRules.builder().build()))
                  .build()))
              .build())
          .build())
      .executable(ExecutableRule.named("counter")
          .arguments(ArgumentRules.builder()
              .operands(OperandRule.any(ValueRule.integer(-5, 5)))
              .doubleDash(DoubleDashMode.OPTIONAL)
              .build())
          .build())
      .executable(ExecutableRule.atPath("pinned", Path.of("/opt/tools/bin/fmt")).exact("--check").exact().build())
      .executable(ExecutableRule.named("echo").arguments(anyPaths()).build())
      .executable(ExecutableRule.named("true").exact().build())
      .executable(ExecutableRule.named("test").exact("-f", "target/app.jar").build())
      .executable(ExecutableRule.atPath("bracket", Path.of("/usr/bin/[")).exact("-d", "src", "]").build())
      .executable(ExecutableRule.named("sleep").arguments(ArgumentRules.builder()
          .operands(OperandRule.between(ValueRule.integer(0, 5), 1, 1)).build()).build())
      .executable(ExecutableRule.atPath("shim", Path.of("/opt/tools/run.cmd")).exact().build())
      .build();

  private final CommandAuthorizer authorizer = new CommandAuthorizer();

  private static ArgumentRules anyPaths() {
    return ArgumentRules.builder().operands(OperandRule.any(ValueRule.path())).build();
  }

  private Authorization authorize(List<String> argv) {
    return authorizer.authorize(POLICY, argv, Optional.empty());
  }

  static Stream<Arguments> allowed() {
    return Stream.of(
        arguments(List.of("tool", "a"), "executables.tool"),
        arguments(List.of("tool", "-v", "--depth", "3", "--depth=4", "-d", "0", "--format", "long", "--out=out/x", "a", "b"),
            "executables.tool"),
        arguments(List.of("tool", "a", "--verbose"), "executables.tool"),
        arguments(List.of("tool", "-vv", "a"), "executables.tool"),
        arguments(List.of("tool", "-vd", "3", "a"), "executables.tool"),
        arguments(List.of("tool", "-d3", "a", "-vd0"), "executables.tool"),
        arguments(List.of("tool", "--", "-a", "--verbose"), "executables.tool"),
        arguments(List.of("tool", "--format=short", "--out", "dir/file", "x"), "executables.tool"),
        arguments(List.of("tool", "--limit", "-99", "--limit=9007199254740993", "x"), "executables.tool"),
        arguments(List.of("vcs", "show", "--stat", "HEAD", "main"), "executables.vcs.subcommands.show"),
        arguments(List.of("vcs", "--quiet", "show"), "executables.vcs.subcommands.show"),
        arguments(List.of("vcs", "diff", "--", "src", "-odd"), "executables.vcs.subcommands.diff"),
        arguments(List.of("vcs", "diff"), "executables.vcs.subcommands.diff"),
        arguments(List.of("vcs", "remote", "list"), "executables.vcs.subcommands.remote.subcommands.list"),
        arguments(List.of("counter", "--", "-3", "0", "5"), "executables.counter"),
        arguments(List.of("/opt/tools/bin/fmt", "--check"), "executables.pinned.exact[0]"),
        arguments(List.of("/opt/tools/bin/fmt"), "executables.pinned.exact[1]"),
        arguments(List.of("sleep", "1"), "executables.sleep"));
  }

  @ParameterizedTest
  @MethodSource("allowed")
  void allowsWhatARuleAllows(List<String> argv, String rule) {
    Authorization authorization = authorize(argv);

    assertThat(authorization.decision().allowed()).as(authorization.decision().message()).isTrue();
    assertThat(authorization.decision().layer()).isEqualTo("operator");
    assertThat(authorization.decision().rule()).isEqualTo(rule);
    assertThat(authorization.rule()).isPresent();
    assertThat("executables." + authorization.rule().get().id()).isEqualTo(rule.replaceFirst("^(executables\\.[^.\\[]+).*", "$1"));
  }

  static Stream<Arguments> refusedByOperator() {
    return Stream.of(
        arguments(List.of("tool"), TOO_FEW_OPERANDS, "executables.tool.operands", null),
        arguments(List.of("tool", "a", "b", "c"), TOO_MANY_OPERANDS, "executables.tool.operands", 3),
        arguments(List.of("tool", "-x", "a"), FLAG_NOT_ALLOWED, "executables.tool.flags", 1),
        arguments(List.of("tool", "--verb", "a"), FLAG_NOT_ALLOWED, "executables.tool.flags", 1),
        arguments(List.of("tool", "--dep=3", "a"), FLAG_NOT_ALLOWED, "executables.tool.flags", 1),
        arguments(List.of("tool", "-vx", "a"), FLAG_NOT_ALLOWED, "executables.tool.flags", 1),
        arguments(List.of("tool", "-v-", "a"), FLAG_NOT_ALLOWED, "executables.tool.flags", 1),
        arguments(List.of("tool", "-d=3", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.-d", 1),
        arguments(List.of("tool", "-d11", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.-d", 1),
        arguments(List.of("tool", "-vd", "11", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.-d", 2),
        arguments(List.of("tool", "a", "-vd"), FLAG_VALUE_INVALID, "executables.tool.flags.-d", 2),
        arguments(List.of("tool", "a", "-", "b"), OPERAND_INVALID, "executables.tool.operands", 2),
        arguments(List.of("tool", "--verbose=yes", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.--verbose", 1),
        arguments(List.of("tool", "--depth", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.--depth", 2),
        arguments(List.of("tool", "a", "--depth"), FLAG_VALUE_INVALID, "executables.tool.flags.--depth", 2),
        arguments(List.of("tool", "--depth", "11", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.--depth", 2),
        arguments(List.of("tool", "--depth=011", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.--depth", 1),
        arguments(List.of("tool", "--depth", "+3", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.--depth", 2),
        arguments(List.of("tool", "--depth", "99999999999999999999", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.--depth", 2),
        arguments(List.of("tool", "--limit", "1e3", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.--limit", 2),
        arguments(List.of("tool", "--limit", "-0x1", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.--limit", 2),
        arguments(List.of("tool", "--format=medium", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.--format", 1),
        arguments(List.of("tool", "--out", "/tmp/x", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.--out", 2),
        arguments(List.of("tool", "--out", "-x", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.--out", 2),
        arguments(List.of("tool", "--out=../x", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.--out", 1),
        arguments(List.of("tool", "../a"), OPERAND_INVALID, "executables.tool.operands", 1),
        arguments(List.of("tool", "a/.."), OPERAND_INVALID, "executables.tool.operands", 1),
        arguments(List.of("tool", "a\nb"), OPERAND_INVALID, "executables.tool.operands", 1),
        arguments(List.of("tool", "a\u202eb"), OPERAND_INVALID, "executables.tool.operands", 1),
        arguments(List.of("tool", "a\u0085"), OPERAND_INVALID, "executables.tool.operands", 1),
        arguments(List.of("vcs"), SUBCOMMAND_NOT_ALLOWED, "executables.vcs.subcommands", null),
        arguments(List.of("vcs", "--quiet"), SUBCOMMAND_NOT_ALLOWED, "executables.vcs.subcommands", null),
        arguments(List.of("vcs", "log"), SUBCOMMAND_NOT_ALLOWED, "executables.vcs.subcommands", 1),
        arguments(List.of("vcs", "sho"), SUBCOMMAND_NOT_ALLOWED, "executables.vcs.subcommands", 1),
        arguments(List.of("vcs", "-c", "x=y", "show"), FLAG_NOT_ALLOWED, "executables.vcs.flags", 1),
        arguments(List.of("vcs", "show", "--quiet"), FLAG_NOT_ALLOWED, "executables.vcs.subcommands.show.flags", 2),
        arguments(List.of("vcs", "--", "show"), DOUBLE_DASH_NOT_ALLOWED, "executables.vcs.doubleDash", 1),
        arguments(List.of("vcs", "show", "feature"), OPERAND_INVALID, "executables.vcs.subcommands.show.operands", 2),
        arguments(List.of("vcs", "show", "--", "HEAD"), DOUBLE_DASH_NOT_ALLOWED, "executables.vcs.subcommands.show.doubleDash", 2),
        arguments(List.of("vcs", "diff", "src"), OPERAND_NOT_ALLOWED, "executables.vcs.subcommands.diff.doubleDash", 2),
        arguments(List.of("vcs", "diff", "--", "../x"), OPERAND_INVALID, "executables.vcs.subcommands.diff.operands", 3),
        arguments(List.of("vcs", "remote"), SUBCOMMAND_NOT_ALLOWED, "executables.vcs.subcommands.remote.subcommands", null),
        arguments(List.of("vcs", "remote", "list", "x"), OPERAND_NOT_ALLOWED,
            "executables.vcs.subcommands.remote.subcommands.list.operands", 3),
        arguments(List.of("counter", "07"), OPERAND_INVALID, "executables.counter.operands", 1),
        arguments(List.of("counter", "6"), OPERAND_INVALID, "executables.counter.operands", 1),
        arguments(List.of("counter", "-3"), FLAG_NOT_ALLOWED, "executables.counter.flags", 1),
        arguments(List.of("counter", "--", "-6"), OPERAND_INVALID, "executables.counter.operands", 2),
        arguments(List.of("/opt/tools/bin/fmt", "--write"), ARGV_NOT_ALLOWED, "executables.pinned.exact", 1),
        arguments(List.of("/opt/tools/bin/fmt", "--check", "x"), ARGV_NOT_ALLOWED, "executables.pinned.exact", 2),
        arguments(List.of("fmt", "--check"), EXECUTABLE_NOT_ALLOWED, "executables", 0),
        arguments(List.of("/opt/tools/bin//fmt"), EXECUTABLE_NOT_ALLOWED, "executables", 0),
        arguments(List.of("/opt/tools/bin/../bin/fmt"), EXECUTABLE_NOT_ALLOWED, "executables", 0),
        arguments(List.of("./tool", "a"), EXECUTABLE_NOT_ALLOWED, "executables", 0),
        arguments(List.of("bin/tool", "a"), EXECUTABLE_NOT_ALLOWED, "executables", 0),
        arguments(List.of("/usr/bin/tool", "a"), EXECUTABLE_NOT_ALLOWED, "executables", 0),
        arguments(List.of("tool.exe", "a"), EXECUTABLE_NOT_ALLOWED, "executables", 0),
        arguments(List.of("tool.", "a"), EXECUTABLE_NOT_ALLOWED, "executables", 0),
        arguments(List.of("..\\tool", "a"), EXECUTABLE_NOT_ALLOWED, "executables", 0),
        arguments(List.of("TOOL", "a"), EXECUTABLE_NOT_ALLOWED, "executables", 0),
        arguments(List.of("unknown"), EXECUTABLE_NOT_ALLOWED, "executables", 0),
        arguments(List.of("sleep", "9"), OPERAND_INVALID, "executables.sleep.operands", 1));
  }

  @ParameterizedTest
  @MethodSource("refusedByOperator")
  void refusesNamingCodeRuleAndIndex(List<String> argv, String code, String rule, Integer index) {
    Authorization authorization = authorize(argv);

    assertDenied(authorization, code, "operator", rule, index);
  }

  static Stream<Arguments> noops() {
    return Stream.of(
        List.of("true"), List.of("/bin/true"), List.of("/usr/bin/true", "--help"), List.of(":"), List.of("false"),
        List.of("exit", "0"), List.of("exit"), List.of("/usr/bin/false", "x"), List.of("sleep", "0"),
        List.of("sleep", "0.0"), List.of("sleep", "00"), List.of("sleep", "0s"), List.of("sleep", ".0"),
        List.of("sleep", "0", "0m"), List.of("sleep"), List.of("TRUE"), List.of("true.exe"), List.of("true."))
        .map(Arguments::of);
  }

  @ParameterizedTest
  @MethodSource("noops")
  void refusesNoopCommandsEvenWhenThePolicyAllowsThem(List<String> argv) {
    assertDenied(authorize(argv), NOOP_COMMAND, "builtin", "builtin.noop", 0);
  }

  @Test
  void allowsCommandsThatReportOnSomethingWhenThePolicyNamesThem() {
    assertThat(authorize(List.of("echo", "hello")).decision().rule()).isEqualTo("executables.echo");
    assertThat(authorize(List.of("test", "-f", "target/app.jar")).decision().rule()).isEqualTo("executables.test.exact[0]");
    assertThat(authorize(List.of("/usr/bin/[", "-d", "src", "]")).decision().rule()).isEqualTo("executables.bracket.exact[0]");
    assertThat(authorize(List.of("sleep", "1")).decision().allowed()).isTrue();
  }

  @Test
  void leavesReportingCommandsThePolicyDoesNotNameToTheOperatorLayer() {
    assertDenied(authorize(List.of("printf", "ok")), EXECUTABLE_NOT_ALLOWED, "operator", "executables", 0);
  }

  static Stream<Arguments> windowsShims() {
    return Stream.of(
        "x.cmd", "x.bat", "X.CMD", "build.Bat", "x.cmd.", "x.BAT  ", "x.bat. .", "C:\\tools\\build.bat",
        "dir/x.cmd", "/opt/tools/run.cmd", "true.cmd")
        .map(Arguments::of);
  }

  @ParameterizedTest
  @MethodSource("windowsShims")
  void refusesWindowsBatchScripts(String program) {
    assertDenied(authorize(List.of(program, "a")), WINDOWS_SHIM, "builtin", "builtin.windows-shim", 0);
  }

  @Test
  void refusesAnEmptyArgv() {
    assertDenied(authorize(List.of()), ARGV_INVALID, "builtin", "builtin.argv", null);
    assertDenied(authorize(List.of("")), ARGV_INVALID, "builtin", "builtin.argv", 0);
  }

  @Test
  void refusesArgumentsNoProcessCanReceive() {
    assertDenied(authorize(List.of("tool", "a", "b\0c")), ARGV_INVALID, "builtin", "builtin.argv", 2);
    assertDenied(authorize(List.of("tool", "a\uD800")), ARGV_INVALID, "builtin", "builtin.argv", 1);
  }

  @Test
  void acceptsPairedSurrogatesInPaths() {
    assertThat(authorize(List.of("tool", "emoji-\uD83D\uDE00")).decision().allowed()).isTrue();
  }

  @Test
  void sleepingForRealIsLeftToThePolicy() {
    assertDenied(authorizer.authorize(ExecutionPolicy.builder().build(), List.of("sleep", "1"), Optional.empty()),
        EXECUTABLE_NOT_ALLOWED, "operator", "executables", 0);
  }

  @Test
  void denyByDefaultWithAnEmptyPolicy() {
    ExecutionPolicy empty = ExecutionPolicy.builder().build();

    assertDenied(authorizer.authorize(empty, List.of("ls"), Optional.empty()), EXECUTABLE_NOT_ALLOWED, "operator", "executables", 0);
  }

  @Test
  void pathsMustLieInsideTheWorkspaceWhenOneIsGiven() {
    Path workspace = Path.of("/work/space");

    assertThat(authorizer.authorize(POLICY, List.of("tool", "src/a"), Optional.of(workspace)).decision().allowed()).isTrue();
    assertDenied(authorizer.authorize(POLICY, List.of("tool", "src/../../a"), Optional.of(workspace)),
        OPERAND_INVALID, "operator", "executables.tool.operands", 1);
  }

  @Test
  void refusesWhenTwoRulesClaimOneExecutable() {
    // Validation refuses such a policy; the authorizer still fails closed if handed one.
    ExecutionPolicy ambiguous = ExecutionPolicy.builder()
        .executable(ExecutableRule.named("ls").exact().build())
        .executable(ExecutableRule.named("ls").id("ls2").exact("-l").build())
        .build();

    assertDenied(authorizer.authorize(ambiguous, List.of("ls"), Optional.empty()), EXECUTABLE_NOT_ALLOWED, "operator", "executables", 0);
  }

  @Test
  void messagesShowControlCharactersEscaped() {
    Decision decision = authorize(List.of("tool", "a\u0001")).decision();

    assertThat(decision.message()).contains("a\\u0001").doesNotContain("\u0001");
  }

  @Test
  void everyLongArgvIsWalkedToTheEnd() {
    List<String> argv = new ArrayList<>(List.of("tool"));
    for (int i = 0; i < 1000; i++) {
      argv.add("-v");
    }
    argv.add("a");
    argv.add("b");
    argv.add("../c");

    assertDenied(authorize(argv), TOO_MANY_OPERANDS, "operator", "executables.tool.operands", 1003);
  }

  static void assertDenied(Authorization authorization, String code, String layer, String rule, Integer index) {
    Decision decision = authorization.decision();
    assertThat(decision.allowed()).as("allowed").isFalse();
    assertThat(decision.code()).as(decision.message()).isEqualTo(code);
    assertThat(decision.layer()).as(decision.message()).isEqualTo(layer);
    assertThat(decision.rule()).as(decision.message()).isEqualTo(rule);
    assertThat(decision.argIndex()).as(decision.message()).isEqualTo(index == null ? OptionalInt.empty() : OptionalInt.of(index));
    assertThat(authorization.rule()).isEmpty();
  }
}
