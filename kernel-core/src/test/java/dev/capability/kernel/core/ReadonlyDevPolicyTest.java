package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.DoubleDashMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.OptionSyntax;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.api.policy.SubcommandRule;
import dev.capability.kernel.api.policy.ValueRule;
import dev.capability.kernel.core.internal.policy.CommandAuthorizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The example policy shipped in {@code examples/policies}, loaded from the real file. */
class ReadonlyDevPolicyTest {

  static final Path FILE = Path.of("..", "examples", "policies", "readonly-dev.json");

  private static LoadedPolicy loaded;

  @BeforeAll
  static void load(@TempDir Path dir) throws IOException {
    // The checkout's own permissions are not ours to vouch for; a private copy passes every file check.
    Path copy = dir.resolve("readonly-dev.json");
    Files.copy(FILE, copy);
    Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
    loaded = ExecutionPolicies.load(copy.toRealPath(), null);
  }

  static Stream<Arguments> table() {
    return Stream.of(
        arguments(List.of("git", "-c", "x=y", "status"), "FLAG_NOT_ALLOWED", "executables.git.flags", 1),
        arguments(List.of("git", "status", "--short", "--porcelain"), "ALLOWED", "executables.git.subcommands.status", null),
        arguments(List.of("git", "status", "--shor"), "FLAG_NOT_ALLOWED", "executables.git.subcommands.status.flags", 2),
        arguments(List.of("git", "status", "-sb"), "ALLOWED", "executables.git.subcommands.status", null),
        arguments(List.of("git", "status", "-sbu"), "FLAG_NOT_ALLOWED", "executables.git.subcommands.status.flags", 2),
        arguments(List.of("git", "diff", "--", "-x"), "ALLOWED", "executables.git.subcommands.diff", null),
        arguments(List.of("git", "diff", "-x"), "FLAG_NOT_ALLOWED", "executables.git.subcommands.diff.flags", 2),
        arguments(List.of("git", "diff", "--", "../x"), "OPERAND_INVALID", "executables.git.subcommands.diff.operands", 3),
        arguments(List.of("git", "diff", "HEAD"), "OPERAND_NOT_ALLOWED", "executables.git.subcommands.diff.doubleDash", 2),
        arguments(List.of("git", "diff", "--stat", "--cached", "--", "src"), "ALLOWED", "executables.git.subcommands.diff", null),
        arguments(List.of("mvn", "-q", "test"), "ALLOWED", "executables.mvn.exact[0]", null),
        arguments(List.of("mvn", "-q", "test", "-X"), "ARGV_NOT_ALLOWED", "executables.mvn.exact", 3),
        arguments(List.of("ls", "-la", "src"), "ALLOWED", "executables.ls", null),
        arguments(List.of("ls", "-lh"), "FLAG_NOT_ALLOWED", "executables.ls.flags", 1),
        arguments(List.of("cat"), "TOO_FEW_OPERANDS", "executables.cat.operands", null),
        arguments(List.of("cat", "-n", "a"), "ALLOWED", "executables.cat", null),
        arguments(List.of("/usr/bin/git", "status"), "EXECUTABLE_NOT_ALLOWED", "executables", 0),
        arguments(List.of("git.exe", "status"), "EXECUTABLE_NOT_ALLOWED", "executables", 0),
        arguments(List.of("git.cmd", "status"), "WINDOWS_SHIM", "builtin.windows-shim", 0),
        arguments(List.of("cat", "~x"), "OPERAND_INVALID", "executables.cat.operands", 1),
        arguments(List.of("cat", "/etc/passwd"), "OPERAND_INVALID", "executables.cat.operands", 1),
        arguments(List.of("cat", "a/../../b"), "OPERAND_INVALID", "executables.cat.operands", 1),
        arguments(List.of("cat", "a\u0001"), "OPERAND_INVALID", "executables.cat.operands", 1),
        arguments(List.of("cat", "--", "-n"), "ALLOWED", "executables.cat", null),
        arguments(List.of("true"), "NOOP_COMMAND", "builtin.noop", 0),
        arguments(List.of("echo", "ok"), "EXECUTABLE_NOT_ALLOWED", "executables", 0));
  }

  /** What an agent reads code with every minute. */
  static Stream<Arguments> ordinaryReading() {
    return Stream.of(
        arguments(List.of("head", "-n", "20", "src/Main.java"), "executables.head"),
        arguments(List.of("head", "--lines=5", "a", "b"), "executables.head"),
        arguments(List.of("tail", "-n", "50", "target/build.log"), "executables.tail"),
        arguments(List.of("wc", "-l", "pom.xml", "src/Main.java"), "executables.wc"),
        arguments(List.of("nl", "-ba", "src/Main.java"), "executables.nl"),
        arguments(List.of("tac", "a"), "executables.tac"),
        arguments(List.of("sed", "-n", "1,20p", "pom.xml"), "executables.sed"),
        arguments(List.of("sed", "-n", "/foo/,$p", "a"), "executables.sed"),
        arguments(List.of("sed", "-n", "-E", "s/(get|set)Name/\\U&/gp", "src/Main.java"), "executables.sed"),
        arguments(List.of("sed", "s|a/b|c|g", "a"), "executables.sed"),
        arguments(List.of("find", "src", "-name", "*.java", "-type", "f"), "executables.find"),
        arguments(List.of("find", ".", "-maxdepth", "2", "-not", "-path", "*/.git/*"), "executables.find"),
        arguments(List.of("grep", "-R", "-n", "TODO", "src"), "executables.grep"),
        arguments(List.of("grep", "-rn", "--include=*.java", "../", "src"), "executables.grep"),
        arguments(List.of("grep", "-n", "--", "-x", "src"), "executables.grep"),
        arguments(List.of("rg", "-n", "foo", "src"), "executables.rg"),
        arguments(List.of("rg", "-i", "-g", "*.java", "class \\w+"), "executables.rg"),
        arguments(List.of("git", "log", "--oneline", "-n", "5"), "executables.git.subcommands.log"),
        arguments(List.of("git", "log", "--oneline", "-n5"), "executables.git.subcommands.log"),
        arguments(List.of("head", "-n20", "a"), "executables.head"),
        arguments(List.of("ls", "-la", "src"), "executables.ls"),
        arguments(List.of("grep", "-rnC3", "TODO", "src"), "executables.grep"),
        arguments(List.of("find", "--", ".", "-name", "*.java", "-print"), "executables.find"),
        arguments(List.of("find", "(", "-name", "a", "-o", "-name", "b", ")", "-print"), "executables.find"),
        arguments(List.of("git", "log", "--max-count=5", "--stat", "--", "src"), "executables.git.subcommands.log"),
        arguments(List.of("git", "show", "HEAD", "--stat"), "executables.git.subcommands.show"),
        arguments(List.of("git", "show", "HEAD~1:pom.xml"), "executables.git.subcommands.show"),
        arguments(List.of("pwd"), "executables.pwd"),
        arguments(List.of("which", "git"), "executables.which"));
  }

  @ParameterizedTest
  @MethodSource("ordinaryReading")
  void allowsOrdinaryReading(List<String> argv, String rule) {
    Decision decision = new CommandAuthorizer().authorize(loaded.policy(), argv, Optional.empty()).decision();

    assertThat(decision.allowed()).as(decision.message()).isTrue();
    assertThat(decision.rule()).isEqualTo(rule);
  }

  /** Options and scripts that run programs, write files or read outside the workspace. */
  static Stream<Arguments> attacks() {
    return Stream.of(
        arguments(List.of("sed", "-n", "1e id", "f"), "OPERAND_INVALID", "executables.sed.operands.leading[0]", 2),
        arguments(List.of("sed", "-n", "w out", "f"), "OPERAND_INVALID", "executables.sed.operands.leading[0]", 2),
        arguments(List.of("sed", "-n", "s/x/y/e", "f"), "OPERAND_INVALID", "executables.sed.operands.leading[0]", 2),
        arguments(List.of("sed", "-n", "s/x/y/w out", "f"), "OPERAND_INVALID", "executables.sed.operands.leading[0]", 2),
        arguments(List.of("sed", "-n", "1p;r /etc/passwd", "f"), "OPERAND_INVALID", "executables.sed.operands.leading[0]", 2),
        arguments(List.of("sed", "-n", "s|x|y|e", "f"), "OPERAND_INVALID", "executables.sed.operands.leading[0]", 2),
        arguments(List.of("sed", "-n", "s/[/]/x/e", "f"), "OPERAND_INVALID", "executables.sed.operands.leading[0]", 2),
        arguments(List.of("sed", "-n", "1p", "/etc/passwd"), "OPERAND_INVALID", "executables.sed.operands", 3),
        arguments(List.of("sed", "-i", "s/a/b/", "f"), "FLAG_NOT_ALLOWED", "executables.sed.flags", 1),
        arguments(List.of("sed", "-n", "1p", "f", "-i"), "FLAG_NOT_ALLOWED", "executables.sed.flags", 4),
        arguments(List.of("sed", "-e", "1p", "f"), "FLAG_NOT_ALLOWED", "executables.sed.flags", 1),
        arguments(List.of("sed", "-f", "script.sed", "f"), "FLAG_NOT_ALLOWED", "executables.sed.flags", 1),
        arguments(List.of("find", ".", "-exec", "sh", "-c", "id", ";"), "FLAG_NOT_ALLOWED", "executables.find.flags", 2),
        arguments(List.of("find", ".", "-execdir", "id", ";"), "FLAG_NOT_ALLOWED", "executables.find.flags", 2),
        arguments(List.of("find", ".", "-okdir", "id", ";"), "FLAG_NOT_ALLOWED", "executables.find.flags", 2),
        arguments(List.of("find", "--", ".", "-delete"), "FLAG_NOT_ALLOWED", "executables.find.flags", 3),
        arguments(List.of("find", "--", ".", "-exec", "sh", "-c", "touch pwned", ";"), "FLAG_NOT_ALLOWED", "executables.find.flags", 3),
        arguments(List.of("find", "--", "-delete"), "FLAG_NOT_ALLOWED", "executables.find.flags", 2),
        arguments(List.of("find", ".", "--", "-delete"), "DOUBLE_DASH_NOT_ALLOWED", "executables.find.doubleDash", 2),
        arguments(List.of("find", "-L", ".", "-name", "x"), "FLAG_NOT_ALLOWED", "executables.find.flags", 1),
        arguments(List.of("find", ".", "-name", "x", "sh"), "OPERAND_NOT_ALLOWED", "executables.find.operands", 4),
        arguments(List.of("find", ".", "-delete"), "FLAG_NOT_ALLOWED", "executables.find.flags", 2),
        arguments(List.of("find", ".", "-fprint", "out"), "FLAG_NOT_ALLOWED", "executables.find.flags", 2),
        arguments(List.of("find", ".", "-fls", "out"), "FLAG_NOT_ALLOWED", "executables.find.flags", 2),
        arguments(List.of("find", ".", "-name", "-delete"), "FLAG_VALUE_INVALID", "executables.find.flags.-name", 3),
        arguments(List.of("find", "/", "-name", "id_rsa"), "OPERAND_INVALID", "executables.find.operands", 1),
        arguments(List.of("grep", "-R", "--pre=sh", "x", "."), "FLAG_NOT_ALLOWED", "executables.grep.flags", 2),
        arguments(List.of("grep", "-e", "x", "/etc/passwd"), "FLAG_NOT_ALLOWED", "executables.grep.flags", 1),
        arguments(List.of("grep", "-f", "patterns", "/etc/passwd"), "FLAG_NOT_ALLOWED", "executables.grep.flags", 1),
        arguments(List.of("grep", "x", "/etc/passwd"), "OPERAND_INVALID", "executables.grep.operands", 2),
        arguments(List.of("grep", "--color", "never", "/etc/passwd"), "FLAG_NOT_ALLOWED", "executables.grep.flags", 1),
        arguments(List.of("rg", "--pre", "sh", "x"), "FLAG_NOT_ALLOWED", "executables.rg.flags", 1),
        arguments(List.of("rg", "--pre-glob", "*", "x"), "FLAG_NOT_ALLOWED", "executables.rg.flags", 1),
        arguments(List.of("rg", "-z", "x", "src"), "FLAG_NOT_ALLOWED", "executables.rg.flags", 1),
        arguments(List.of("rg", "--search-zip", "x"), "FLAG_NOT_ALLOWED", "executables.rg.flags", 1),
        arguments(List.of("rg", "--files", "/etc"), "FLAG_NOT_ALLOWED", "executables.rg.flags", 1),
        arguments(List.of("rg", "-e", "x", "/etc/passwd"), "FLAG_NOT_ALLOWED", "executables.rg.flags", 1),
        arguments(List.of("git", "log", "--output=/tmp/x"), "FLAG_NOT_ALLOWED", "executables.git.subcommands.log.flags", 2),
        arguments(List.of("git", "log", "-p", "--ext-diff"), "FLAG_NOT_ALLOWED", "executables.git.subcommands.log.flags", 3),
        arguments(List.of("git", "log", "--textconv"), "FLAG_NOT_ALLOWED", "executables.git.subcommands.log.flags", 2),
        arguments(List.of("git", "log", "-n5x"), "FLAG_VALUE_INVALID", "executables.git.subcommands.log.flags.-n", 2),
        arguments(List.of("git", "log", "-pn", "x"), "FLAG_VALUE_INVALID", "executables.git.subcommands.log.flags.-n", 3),
        arguments(List.of("git", "show", "--ext-diff"), "FLAG_NOT_ALLOWED", "executables.git.subcommands.show.flags", 2),
        arguments(List.of("git", "show", "HEAD", "--output", "x"), "FLAG_NOT_ALLOWED", "executables.git.subcommands.show.flags", 3),
        arguments(List.of("tail", "-f", "a"), "FLAG_NOT_ALLOWED", "executables.tail.flags", 1),
        arguments(List.of("wc", "--files0-from=list"), "FLAG_NOT_ALLOWED", "executables.wc.flags", 1),
        arguments(List.of("head", "-20", "a"), "FLAG_NOT_ALLOWED", "executables.head.flags", 1),
        arguments(List.of("sed", "-ni", "1p", "f"), "FLAG_NOT_ALLOWED", "executables.sed.flags", 1),
        arguments(List.of("grep", "-rne", "x", "/etc/passwd"), "FLAG_NOT_ALLOWED", "executables.grep.flags", 1),
        arguments(List.of("which", "git", "-a"), "OPERAND_INVALID", "executables.which.operands", 2),
        arguments(List.of("head", "/etc/shadow"), "OPERAND_INVALID", "executables.head.operands", 1),
        arguments(List.of("pwd", "x"), "OPERAND_NOT_ALLOWED", "executables.pwd.operands", 1),
        arguments(List.of("which", "--", "-x"), "DOUBLE_DASH_NOT_ALLOWED", "executables.which.doubleDash", 1));
  }

  @ParameterizedTest
  @MethodSource("attacks")
  void refusesTheAttacks(List<String> argv, String code, String rule, int index) {
    Decision decision = new CommandAuthorizer().authorize(loaded.policy(), argv, Optional.empty()).decision();

    assertThat(decision.code()).as(decision.message()).isEqualTo(code);
    assertThat(decision.rule()).as(decision.message()).isEqualTo(rule);
    assertThat(decision.argIndex()).as(decision.message()).isEqualTo(OptionalInt.of(index));
  }

  @Test
  void theScriptOrPatternIsAlwaysTheFirstOperand() {
    // A flag that supplies the script or pattern would make the program read the first operand as a path.
    for (String tool : List.of("sed", "grep", "rg")) {
      ArgumentRules rules = loaded.policy().executable(tool).orElseThrow().arguments().orElseThrow();
      assertThat(rules.flags().keySet()).as(tool)
          .doesNotContain("-e", "--expression", "--regexp", "-f", "--file", "--files", "--type-list");
      assertThat(rules.operands().orElseThrow().leading()).as(tool).hasSize(1);
    }
    ArgumentRules sed = loaded.policy().executable("sed").orElseThrow().arguments().orElseThrow();
    assertThat(sed.flags().keySet()).doesNotContain("-i", "--in-place");
    assertThat(sed.operands().orElseThrow().leading()).containsExactly(ValueRule.sedScript());
    assertThat(loaded.policy().executable("grep").orElseThrow().arguments().orElseThrow().operands().orElseThrow().leading())
        .containsExactly(ValueRule.string());
  }

  @Test
  void findIsReadAsFindReadsItSoEveryPrimaryIsCheckedAsAFlag() {
    ArgumentRules find = loaded.policy().executable("find").orElseThrow().arguments().orElseThrow();

    assertThat(find.syntax()).isEqualTo(OptionSyntax.FIND);
    assertThat(find.doubleDash()).isEqualTo(DoubleDashMode.OPTIONAL);
    assertThat(find.flags().keySet()).doesNotContain(
        "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls", "-L", "-H", "-follow");
  }

  @ParameterizedTest
  @MethodSource("table")
  void decidesTheTable(List<String> argv, String code, String rule, Integer index) {
    Decision decision = new CommandAuthorizer().authorize(loaded.policy(), argv, Optional.empty()).decision();

    assertThat(decision.code()).as(decision.message()).isEqualTo(code);
    assertThat(decision.rule()).as(decision.message()).isEqualTo(rule);
    assertThat(decision.argIndex()).isEqualTo(index == null ? OptionalInt.empty() : OptionalInt.of(index));
  }

  @Test
  void holdsTheDocumentedSettings() {
    ExecutionPolicy policy = loaded.policy();

    assertThat(policy.network()).isEqualTo(NetworkMode.NONE);
    assertThat(policy.projectWrites()).isEqualTo(ProjectWriteMode.READ_ONLY);
    assertThat(policy.writeScopes()).isEmpty();
    assertThat(policy.inheritEnvironment()).containsExactly("LANG", "PATH");
    assertThat(policy.setEnvironment()).isEmpty();
    assertThat(policy.allowRepositoryExecutables()).isFalse();
    assertThat(policy.executables()).extracting(ExecutableRule::id).containsExactly(
        "cat", "find", "git", "grep", "head", "ls", "mvn", "nl", "pwd", "rg", "sed", "tac", "tail", "wc", "which");
    assertThat(policy.executables()).allSatisfy(rule -> {
      assertThat(rule.matching()).isEqualTo(ExecutableRule.Matching.NAME);
      assertThat(rule.name()).contains(rule.id());
    });
    assertThat(policy.executable("mvn").orElseThrow().exactArguments()).containsExactly(List.of("-q", "test"));
    assertThat(policy.executable("cat").orElseThrow().arguments().orElseThrow().operands())
        .contains(OperandRule.atLeast(ValueRule.path(), 1));
    assertThat(policy.executable("ls").orElseThrow().arguments().orElseThrow().operands())
        .contains(OperandRule.any(ValueRule.path()));
    assertThat(policy.executable("git").orElseThrow().arguments().orElseThrow().subcommands()).containsOnlyKeys("status", "diff", "log", "show");
  }

  @Test
  void everyRuleCarriesExamplesBothWays() {
    for (ExecutableRule rule : loaded.policy().executables()) {
      assertThat(rule.examples().match()).as(rule.id()).isNotEmpty();
      assertThat(rule.examples().notMatch()).as(rule.id()).isNotEmpty();
      rule.arguments().ifPresent(arguments -> assertSubcommandExamples(arguments, rule.id()));
    }
  }

  private static void assertSubcommandExamples(ArgumentRules arguments, String path) {
    for (var entry : arguments.subcommands().entrySet()) {
      SubcommandRule subcommand = entry.getValue();
      assertThat(subcommand.examples().match()).as(path + " " + entry.getKey()).isNotEmpty();
      assertThat(subcommand.examples().notMatch()).as(path + " " + entry.getKey()).isNotEmpty();
      assertSubcommandExamples(subcommand.arguments(), path + " " + entry.getKey());
    }
  }

  @Test
  void theFileAndItsParsedTextHashAlike() throws IOException {
    LoadedPolicy parsed = ExecutionPolicies.parse(Files.readString(FILE), "test");

    assertThat(parsed.hash()).isEqualTo(loaded.hash()).matches("[0-9a-f]{64}");
    assertThat(ExecutionPolicies.of(loaded.policy()).hash()).isEqualTo(loaded.hash());
    assertThat(loaded.source()).endsWith("readonly-dev.json").startsWith("/");
  }

  @Test
  void theWorkspaceBoundsPathOperands(@TempDir Path workspace) {
    CommandAuthorizer authorizer = new CommandAuthorizer();

    assertThat(authorizer.authorize(loaded.policy(), List.of("cat", "src/a"), Optional.of(workspace)).decision().allowed()).isTrue();
    assertThat(authorizer.authorize(loaded.policy(), List.of("ls"), Optional.of(workspace)).decision().allowed()).isTrue();
    assertThat(authorizer.authorize(loaded.policy(), List.of("cat", "../a"), Optional.of(workspace)).decision().code())
        .isEqualTo("OPERAND_INVALID");
    assertThat(authorizer.authorize(loaded.policy(), List.of("grep", "-rn", "../", "src"), Optional.of(workspace)).decision().allowed())
        .isTrue();
    assertThat(authorizer.authorize(loaded.policy(), List.of("grep", "-rn", "x", "../a"), Optional.of(workspace)).decision().code())
        .isEqualTo("OPERAND_INVALID");
  }
}
