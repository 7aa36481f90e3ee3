package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.OperandRule;
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
    loaded = ExecutionPolicies.load(copy.toRealPath(), Optional.empty());
  }

  static Stream<Arguments> table() {
    return Stream.of(
        arguments(List.of("git", "-c", "x=y", "status"), "FLAG_NOT_ALLOWED", "executables.git.flags", 1),
        arguments(List.of("git", "status", "--short", "--porcelain"), "ALLOWED", "executables.git.subcommands.status", null),
        arguments(List.of("git", "status", "--shor"), "FLAG_NOT_ALLOWED", "executables.git.subcommands.status.flags", 2),
        arguments(List.of("git", "status", "-sb"), "FLAG_NOT_ALLOWED", "executables.git.subcommands.status.flags", 2),
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
    assertThat(policy.executables()).extracting(ExecutableRule::id).containsExactly("cat", "git", "ls", "mvn");
    assertThat(policy.executables()).allSatisfy(rule -> {
      assertThat(rule.matching()).isEqualTo(ExecutableRule.Matching.NAME);
      assertThat(rule.name()).contains(rule.id());
    });
    assertThat(policy.executable("mvn").orElseThrow().exactArguments()).containsExactly(List.of("-q", "test"));
    assertThat(policy.executable("cat").orElseThrow().arguments().orElseThrow().operands())
        .contains(OperandRule.atLeast(ValueRule.path(), 1));
    assertThat(policy.executable("ls").orElseThrow().arguments().orElseThrow().operands())
        .contains(OperandRule.any(ValueRule.path()));
    assertThat(policy.executable("git").orElseThrow().arguments().orElseThrow().subcommands()).containsOnlyKeys("status", "diff");
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
  }
}
