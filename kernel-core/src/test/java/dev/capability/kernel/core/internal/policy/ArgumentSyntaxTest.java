package dev.capability.kernel.core.internal.policy;

import static dev.capability.kernel.api.policy.PolicyCodes.DOUBLE_DASH_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.FLAG_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.FLAG_VALUE_INVALID;
import static dev.capability.kernel.api.policy.PolicyCodes.KEY_VALUE_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.OPERAND_INVALID;
import static dev.capability.kernel.api.policy.PolicyCodes.OPERAND_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.TOO_MANY_OPERANDS;
import static dev.capability.kernel.core.internal.policy.CommandAuthorizerTest.assertDenied;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.DoubleDashMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.FlagRule;
import dev.capability.kernel.api.policy.KeyValueMode;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.OptionSyntax;
import dev.capability.kernel.api.policy.ValueRule;
import dev.capability.kernel.core.internal.authority.WriteTarget;
import dev.capability.kernel.core.internal.policy.CommandAuthorizer.Authorization;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each option syntax and spelling, read as the program reads argv. */
class ArgumentSyntaxTest {

  static final ArgumentRules GETOPT = ArgumentRules.builder()
      .flag("-l")
      .flag("-a")
      .flag("-1")
      .flag("-v")
      .flag("-n", FlagRule.withValue(ValueRule.integer(0, 100)))
      .flag("-o", FlagRule.withValue(ValueRule.writePath()))
      .flag("-k", FlagRule.withValue(ValueRule.string()))
      .flag("-b", FlagRule.withValue(ValueRule.literal("a", "t")))
      .flag("-bx")
      .flag("--lines", FlagRule.withValue(ValueRule.integer(0, 100)))
      .operands(OperandRule.any(ValueRule.path()))
      .doubleDash(DoubleDashMode.OPTIONAL)
      .build();

  /** What {@code python3 -m pytest [pytest's own options] [test paths]} allows, and no script. */
  static final ArgumentRules PYTHON = ArgumentRules.builder()
      .syntax(OptionSyntax.OPTIONS_FIRST)
      .flag("-B")
      .flag("-m", FlagRule.withValue(ValueRule.literal("pytest")).followedBy(ArgumentRules.builder()
          .flag("-q")
          .flag("-x")
          .flag("-k", FlagRule.withValue(ValueRule.string()))
          .operands(OperandRule.any(ValueRule.path()))
          .build()))
      .build();

  /** The rule an author writes who reads python3 as getopt: the module, and test paths as operands. */
  static final ArgumentRules PYTHON_AS_OPERANDS = ArgumentRules.builder()
      .flag("-m", FlagRule.withValue(ValueRule.literal("pytest")))
      .operands(OperandRule.any(ValueRule.path()))
      .build();

  static final ArgumentRules ENV = ArgumentRules.builder()
      .syntax(OptionSyntax.OPTIONS_FIRST)
      .flag("-i")
      .operands(OperandRule.atLeast(ValueRule.string(), 1).withLeading(ValueRule.literal("printenv"), ValueRule.literal("-0", "PATH")))
      .doubleDash(DoubleDashMode.OPTIONAL)
      .build();

  static final ArgumentRules FIND = ArgumentRules.builder()
      .syntax(OptionSyntax.FIND)
      .flag("-L")
      .flag("-O3")
      .flag("-D", FlagRule.withValue(ValueRule.literal("tree")))
      .flag("-name", FlagRule.withValue(ValueRule.string()))
      .flag("-newer", FlagRule.withValue(ValueRule.path()))
      .flag("-type", FlagRule.withValue(ValueRule.literal("f", "d")))
      .flag("-o")
      .flag("-print")
      .flag("-fprint", FlagRule.withValue(ValueRule.writePath()))
      .operands(OperandRule.any(ValueRule.path()))
      .doubleDash(DoubleDashMode.OPTIONAL)
      .build();

  /** find's expression read as getopt operands after --, as every rule was read before find syntax. */
  static final ArgumentRules FIND_AS_GETOPT = ArgumentRules.builder()
      .flag("-name", FlagRule.withValue(ValueRule.string()))
      .operands(OperandRule.any(ValueRule.path()))
      .doubleDash(DoubleDashMode.OPTIONAL)
      .build();

  static final ArgumentRules TAR = ArgumentRules.builder()
      .syntax(OptionSyntax.TAR)
      .flag("-t")
      .flag("-x")
      .flag("-v")
      .flag("-z")
      .flag("-f", FlagRule.withValue(ValueRule.path()))
      .flag("--file", FlagRule.withValue(ValueRule.path()))
      .flag("-C", FlagRule.withValue(ValueRule.writePath()))
      .operands(OperandRule.any(ValueRule.path()))
      .build();

  static final ArgumentRules TAR_AS_GETOPT = TAR.toBuilder().syntax(OptionSyntax.GETOPT).build();

  static final ArgumentRules MAKE = ArgumentRules.builder()
      .flag("-j", FlagRule.withValue(ValueRule.integer(1, 64)))
      .flag("-k")
      .operands(OperandRule.any(ValueRule.string()))
      .doubleDash(DoubleDashMode.OPTIONAL)
      .keyValueOperands(KeyValueMode.REFUSE)
      .build();

  static final ArgumentRules MAKE_AS_OPERANDS = MAKE.toBuilder().keyValueOperands(KeyValueMode.OPERAND).build();

  static final ArgumentRules DD = ArgumentRules.builder()
      .keyValueOperands(KeyValueMode.TYPED)
      .keyValue("if", ValueRule.path())
      .keyValue("of", ValueRule.writePath())
      .keyValue("count", ValueRule.integer(0, 1000))
      .build();

  static final ArgumentRules DD_AS_OPERANDS = ArgumentRules.builder().operands(OperandRule.any(ValueRule.path())).build();

  private static final ExecutionPolicy POLICY = ExecutionPolicy.builder()
      .executable(ExecutableRule.named("tool").arguments(GETOPT).build())
      .executable(ExecutableRule.named("python3").arguments(PYTHON).build())
      .executable(ExecutableRule.named("python").arguments(PYTHON_AS_OPERANDS).build())
      .executable(ExecutableRule.named("env").arguments(ENV).build())
      .executable(ExecutableRule.named("find").arguments(FIND).build())
      .executable(ExecutableRule.named("gfind").arguments(FIND_AS_GETOPT).build())
      .executable(ExecutableRule.named("tar").arguments(TAR).build())
      .executable(ExecutableRule.named("gtar").arguments(TAR_AS_GETOPT).build())
      .executable(ExecutableRule.named("make").arguments(MAKE).build())
      .executable(ExecutableRule.named("gmake").arguments(MAKE_AS_OPERANDS).build())
      .executable(ExecutableRule.named("dd").arguments(DD).build())
      .executable(ExecutableRule.named("gdd").arguments(DD_AS_OPERANDS).build())
      .build();

  private static Authorization authorize(String... argv) {
    return new CommandAuthorizer().authorize(POLICY, List.of(argv), Optional.empty());
  }

  private static Decision decide(String... argv) {
    return authorize(argv).decision();
  }

  static Stream<Arguments> allowed() {
    return Stream.of(
        arguments(List.of("tool", "-la", "src"), "executables.tool"),
        arguments(List.of("tool", "-al1v", "src"), "executables.tool"),
        arguments(List.of("tool", "-n5", "a"), "executables.tool"),
        arguments(List.of("tool", "-vn5", "a", "-ln", "7"), "executables.tool"),
        arguments(List.of("tool", "-n-0", "a"), "executables.tool"),
        arguments(List.of("tool", "-kfoo bar", "a"), "executables.tool"),
        arguments(List.of("tool", "-ba"), "executables.tool"),
        arguments(List.of("tool", "-bx"), "executables.tool"),
        arguments(List.of("tool", "--lines=5", "--lines", "6"), "executables.tool"),
        arguments(List.of("python3", "-m", "pytest"), "executables.python3.flags.-m"),
        arguments(List.of("python3", "-B", "-m", "pytest", "-q", "-k", "slow and not db", "tests/test_a.py", "-x"),
            "executables.python3.flags.-m"),
        arguments(List.of("env", "printenv", "-0"), "executables.env"),
        arguments(List.of("env", "-i", "--", "printenv", "PATH"), "executables.env"),
        arguments(List.of("find"), "executables.find"),
        arguments(List.of("find", "-L", "-O3", "-D", "tree", "--", "src", ")", "-name", "*.java"), "executables.find"),
        arguments(List.of("find", "--", "-name", "x"), "executables.find"),
        arguments(List.of("find", "!", "-name", "x", "-o", "(", "-type", "f", ",", "-print", ")"), "executables.find"),
        arguments(List.of("tar", "tvf", "a.tar"), "executables.tar"),
        arguments(List.of("tar", "tvzf", "a.tar.gz", "dir/member"), "executables.tar"),
        arguments(List.of("tar", "-tvf", "a.tar", "member"), "executables.tar"),
        arguments(List.of("tar", "-tf", "./host:a.tar"), "executables.tar"),
        arguments(List.of("tar", "--file=dir/a:b.tar", "-t"), "executables.tar"),
        arguments(List.of("tar", "-fa.tar", "-t", "-v"), "executables.tar"),
        arguments(List.of("make", "-j4", "test", "-k"), "executables.make"),
        arguments(List.of("make", "-j", "4", "--", "build"), "executables.make"),
        arguments(List.of("dd", "if=in.bin", "of=out/copy.bin", "count=1"), "executables.dd"),
        arguments(List.of("dd", "of=-odd"), "executables.dd"));
  }

  @ParameterizedTest
  @MethodSource("allowed")
  void readsEachSpellingTheProgramAccepts(List<String> argv, String rule) {
    Decision decision = decide(argv.toArray(String[]::new));

    assertThat(decision.allowed()).as(decision.message()).isTrue();
    assertThat(decision.rule()).isEqualTo(rule);
  }

  static Stream<Arguments> refused() {
    return Stream.of(
        // getopt: bundles and attached values, letter by letter.
        arguments(List.of("tool", "-lh", "src"), FLAG_NOT_ALLOWED, "executables.tool.flags", 1),
        arguments(List.of("tool", "src", "-alR"), FLAG_NOT_ALLOWED, "executables.tool.flags", 2),
        arguments(List.of("tool", "-l\u00e9"), FLAG_NOT_ALLOWED, "executables.tool.flags", 1),
        arguments(List.of("tool", "-n500", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.-n", 1),
        arguments(List.of("tool", "-n", "500", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.-n", 2),
        arguments(List.of("tool", "-nl", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.-n", 1),
        arguments(List.of("tool", "-n=5", "a"), FLAG_VALUE_INVALID, "executables.tool.flags.-n", 1),
        arguments(List.of("tool", "-ln"), FLAG_VALUE_INVALID, "executables.tool.flags.-n", 1),
        arguments(List.of("tool", "-o/etc/passwd"), FLAG_VALUE_INVALID, "executables.tool.flags.-o", 1),
        arguments(List.of("tool", "-k-x"), FLAG_VALUE_INVALID, "executables.tool.flags.-k", 1),
        arguments(List.of("tool", "-bz"), FLAG_VALUE_INVALID, "executables.tool.flags.-b", 1),
        arguments(List.of("tool", "--line=5"), FLAG_NOT_ALLOWED, "executables.tool.flags", 1),
        // options-first: the first operand ends the options; a script is an operand.
        arguments(List.of("python3", "evil.py", "-m", "pytest"), OPERAND_NOT_ALLOWED, "executables.python3.operands", 1),
        arguments(List.of("python3", "evil.py"), OPERAND_NOT_ALLOWED, "executables.python3.operands", 1),
        arguments(List.of("python3", "-Bm", "pytest"), FLAG_NOT_ALLOWED, "executables.python3.flags", 1),
        arguments(List.of("python3", "-c", "import os"), FLAG_NOT_ALLOWED, "executables.python3.flags", 1),
        arguments(List.of("python3", "-m", "http.server"), FLAG_VALUE_INVALID, "executables.python3.flags.-m", 2),
        arguments(List.of("python3", "-m", "pytest", "-p", "evil"), FLAG_NOT_ALLOWED, "executables.python3.flags.-m.flags", 3),
        arguments(List.of("python3", "-m", "pytest", "-B"), FLAG_NOT_ALLOWED, "executables.python3.flags.-m.flags", 3),
        arguments(List.of("env", "printenv", "-i"), OPERAND_INVALID, "executables.env.operands.leading[1]", 2),
        arguments(List.of("env", "printenv", "PATH", "-x"), OPERAND_INVALID, "executables.env.operands", 3),
        arguments(List.of("env", "sh", "-i"), OPERAND_INVALID, "executables.env.operands.leading[0]", 1),
        // find: -- ends the leading options only; the expression is typed.
        arguments(List.of("find", "--", ".", "-exec", "sh", "-c", "touch pwned", ";"), FLAG_NOT_ALLOWED, "executables.find.flags", 3),
        arguments(List.of("find", ".", "-delete"), FLAG_NOT_ALLOWED, "executables.find.flags", 2),
        arguments(List.of("find", "--", "-delete"), FLAG_NOT_ALLOWED, "executables.find.flags", 2),
        arguments(List.of("find", ".", "--", "-print"), DOUBLE_DASH_NOT_ALLOWED, "executables.find.doubleDash", 2),
        arguments(List.of("find", ".", "-L"), FLAG_NOT_ALLOWED, "executables.find.flags", 2),
        arguments(List.of("find", "--", "-L", "."), FLAG_NOT_ALLOWED, "executables.find.flags", 2),
        arguments(List.of("find", "-H", "."), FLAG_NOT_ALLOWED, "executables.find.flags", 1),
        arguments(List.of("find", "-O1", "."), FLAG_NOT_ALLOWED, "executables.find.flags", 1),
        arguments(List.of("find", ".", "-name", "x", "sh"), OPERAND_NOT_ALLOWED, "executables.find.operands", 4),
        arguments(List.of("find", ".", "-newer", "/etc/passwd"), FLAG_VALUE_INVALID, "executables.find.flags.-newer", 3),
        arguments(List.of("find", ".", "-name"), FLAG_VALUE_INVALID, "executables.find.flags.-name", 2),
        arguments(List.of("find", "/", "-print"), OPERAND_INVALID, "executables.find.operands", 1),
        arguments(List.of("find", "-", "-print"), OPERAND_INVALID, "executables.find.operands", 1),
        // tar: the first argument is old-style options, letter by letter.
        arguments(List.of("tar", "tIf", "sh -c 'touch pwned'", "a.tar"), FLAG_NOT_ALLOWED, "executables.tar.flags", 1),
        arguments(List.of("tar", "-tIf", "a.tar"), FLAG_NOT_ALLOWED, "executables.tar.flags", 1),
        arguments(List.of("tar", "tf"), FLAG_VALUE_INVALID, "executables.tar.flags.-f", 1),
        arguments(List.of("tar", "tf", "/etc/shadow"), FLAG_VALUE_INVALID, "executables.tar.flags.-f", 2),
        arguments(List.of("tar", "tf", "host:a.tar"), FLAG_VALUE_INVALID, "executables.tar.flags.-f", 2),
        arguments(List.of("tar", "-t", "--file=user@host:a.tar"), FLAG_VALUE_INVALID, "executables.tar.flags.--file", 2),
        arguments(List.of("tar", "-tfhost:a"), FLAG_VALUE_INVALID, "executables.tar.flags.-f", 1),
        arguments(List.of("tar", "tf", "a.tar", "--to-command=sh"), FLAG_NOT_ALLOWED, "executables.tar.flags", 3),
        arguments(List.of("tar", ""), FLAG_NOT_ALLOWED, "executables.tar.flags", 1),
        arguments(List.of("tar", "t-f", "a.tar"), FLAG_NOT_ALLOWED, "executables.tar.flags", 1),
        // key=value operands.
        arguments(List.of("make", "CC=sh"), KEY_VALUE_NOT_ALLOWED, "executables.make.keyValueOperands", 1),
        arguments(List.of("make", "test", "SHELL=/bin/sh"), KEY_VALUE_NOT_ALLOWED, "executables.make.keyValueOperands", 2),
        arguments(List.of("make", "--", "X!=touch pwned"), KEY_VALUE_NOT_ALLOWED, "executables.make.keyValueOperands", 2),
        arguments(List.of("dd", "of=/abs"), OPERAND_INVALID, "executables.dd.keyValues.of", 1),
        arguments(List.of("dd", "if=../secret"), OPERAND_INVALID, "executables.dd.keyValues.if", 1),
        arguments(List.of("dd", "if=a", "conv=notrunc"), KEY_VALUE_NOT_ALLOWED, "executables.dd.keyValues", 2),
        arguments(List.of("dd", "=x"), KEY_VALUE_NOT_ALLOWED, "executables.dd.keyValues", 1),
        arguments(List.of("dd", "a"), OPERAND_NOT_ALLOWED, "executables.dd.operands", 1));
  }

  @ParameterizedTest
  @MethodSource("refused")
  void refusesWhatTheProgramWouldReadOtherwise(List<String> argv, String code, String rule, int index) {
    assertDenied(authorize(argv.toArray(String[]::new)), code, "operator", rule, index);
  }

  /** The same argv under the getopt reading every rule had before syntaxes: the program would have run it. */
  static Stream<Arguments> attacksTheGetoptReadingAllowed() {
    return Stream.of(
        arguments(List.of("python", "evil.py", "-m", "pytest"), List.of("python3", "evil.py", "-m", "pytest")),
        arguments(List.of("gfind", "--", ".", "-exec", "sh", "-c", "touch pwned", ";"),
            List.of("find", "--", ".", "-exec", "sh", "-c", "touch pwned", ";")),
        arguments(List.of("gtar", "tIf", "sh -c 'touch pwned'", "a.tar"), List.of("tar", "tIf", "sh -c 'touch pwned'", "a.tar")),
        arguments(List.of("gmake", "CC=sh"), List.of("make", "CC=sh")),
        arguments(List.of("gdd", "of=/abs"), List.of("dd", "of=/abs")));
  }

  @ParameterizedTest
  @MethodSource("attacksTheGetoptReadingAllowed")
  void theSyntaxRefusesWhatTheGetoptReadingAllowed(List<String> asGetopt, List<String> asTheProgramReadsIt) {
    assertThat(decide(asGetopt.toArray(String[]::new)).allowed()).as("read as getopt").isTrue();
    assertThat(decide(asTheProgramReadsIt.toArray(String[]::new)).allowed()).as("read as the program reads it").isFalse();
  }

  @Test
  void writeTargetsKeepTheIndexOfTheArgumentThatHoldsThem() {
    // getopt reads -vout/x as -v and -o with the value "ut/x".
    assertThat(authorize("tool", "-vout/x", "a").writeTargets()).containsExactly(new WriteTarget(1, "ut/x"));
    assertThat(authorize("tool", "-voout/x", "a").writeTargets()).containsExactly(new WriteTarget(1, "out/x"));
    assertThat(authorize("tool", "-vo", "out/y", "a").writeTargets()).containsExactly(new WriteTarget(2, "out/y"));
    assertThat(authorize("tar", "xfC", "a.tar", "out").writeTargets()).containsExactly(new WriteTarget(3, "out"));
    assertThat(authorize("find", ".", "-fprint", "out/list").writeTargets()).containsExactly(new WriteTarget(3, "out/list"));
    assertThat(authorize("dd", "if=a", "of=out/b").writeTargets()).containsExactly(new WriteTarget(2, "out/b"));
  }

  @Test
  void anExactListingWinsOverTheBundleReading() {
    // -bx is listed as written; read as a bundle it would be -b with the refused value "x".
    assertThat(decide("tool", "-bx").allowed()).isTrue();
    assertThat(decide("tool", "-b", "x").code()).isEqualTo(FLAG_VALUE_INVALID);
  }

  @Test
  void keyValueOperandsDoNotCountAsOperands() {
    ExecutionPolicy policy = ExecutionPolicy.builder().executable(ExecutableRule.named("dd").arguments(DD.toBuilder()
        .operands(OperandRule.between(ValueRule.literal("noop"), 0, 1)).build()).build()).build();

    Decision decision = new CommandAuthorizer().authorize(policy, List.of("dd", "if=a", "noop", "count=1"), Optional.empty()).decision();
    Decision twice = new CommandAuthorizer().authorize(policy, List.of("dd", "noop", "noop"), Optional.empty()).decision();

    assertThat(decision.allowed()).as(decision.message()).isTrue();
    assertThat(twice.code()).isEqualTo(TOO_MANY_OPERANDS);
  }

  @Test
  void aFindRuleThatSkippedValidationStillReadsPrimariesAsFindDoes() {
    // Validation refuses these declarations; the matcher refuses them too rather than misreading the expression.
    ExecutionPolicy unvalidated = ExecutionPolicy.builder().executable(ExecutableRule.named("find").arguments(ArgumentRules.builder()
        .syntax(OptionSyntax.FIND).flag("-name").flag("-exec", FlagRule.withValue(ValueRule.string())).flag("-print").build()).build())
        .build();
    CommandAuthorizer authorizer = new CommandAuthorizer();

    assertDenied(authorizer.authorize(unvalidated, List.of("find", "-name", "x"), Optional.empty()),
        FLAG_NOT_ALLOWED, "operator", "executables.find.flags.-name", 1);
    assertDenied(authorizer.authorize(unvalidated, List.of("find", "-exec", "id", ";"), Optional.empty()),
        FLAG_NOT_ALLOWED, "operator", "executables.find.flags.-exec", 1);
    assertThat(authorizer.authorize(unvalidated, List.of("find", "-print"), Optional.empty()).decision().allowed()).isTrue();
  }

  @Test
  void messagesNameTheLetterTheProgramWouldHaveRead() {
    assertThat(decide("tar", "tIf", "x", "a.tar").message()).contains("\"I\"", "\"-I\"", "\"tIf\"", "old-style");
    assertThat(decide("tool", "-lh").message()).contains("\"-h\"", "\"-lh\"");
    assertThat(decide("find", ".", "-name", "x", "sh").message()).contains("starting points only before the expression");
    assertThat(decide("tar", "tf", "host:a.tar").message()).contains("remote", "./host:a.tar");
  }
}
