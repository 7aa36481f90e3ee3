package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.KeyValueMode;
import dev.capability.kernel.api.policy.OptionSyntax;
import dev.capability.kernel.core.internal.authority.WriteTarget;
import dev.capability.kernel.core.internal.policy.CommandAuthorizer;
import dev.capability.kernel.core.internal.policy.CommandAuthorizer.Authorization;
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

/** The example policy for tools that do not read argv as GNU getopt does, loaded from the real file. */
class ToolchainsPolicyTest {

  static final Path FILE = Path.of("..", "examples", "policies", "toolchains.json");

  private static LoadedPolicy loaded;

  @BeforeAll
  static void load(@TempDir Path dir) throws IOException {
    Path copy = dir.resolve("toolchains.json");
    Files.copy(FILE, copy);
    Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
    loaded = ExecutionPolicies.load(copy.toRealPath(), null);
  }

  private static Authorization authorize(List<String> argv) {
    return new CommandAuthorizer().authorize(loaded.policy(), argv, Optional.empty());
  }

  static Stream<Arguments> attacks() {
    return Stream.of(
        arguments(List.of("python3", "evil.py", "-m", "pytest"), "OPERAND_NOT_ALLOWED", "executables.python3.operands", 1),
        arguments(List.of("python3", "-m", "pytest", "-p", "evil"), "FLAG_NOT_ALLOWED", "executables.python3.flags.-m.flags", 3),
        arguments(List.of("python3", "-Bc", "import os"), "FLAG_NOT_ALLOWED", "executables.python3.flags", 1),
        arguments(List.of("tar", "tIf", "sh -c 'touch pwned'", "a.tar"), "FLAG_NOT_ALLOWED", "executables.tar.flags", 1),
        arguments(List.of("tar", "-tIf", "sh", "a.tar"), "FLAG_NOT_ALLOWED", "executables.tar.flags", 1),
        arguments(List.of("tar", "tf", "host:a.tar"), "FLAG_VALUE_INVALID", "executables.tar.flags.-f", 2),
        arguments(List.of("make", "CC=sh"), "KEY_VALUE_NOT_ALLOWED", "executables.make.keyValueOperands", 1),
        arguments(List.of("make", "test", "X!=touch pwned"), "KEY_VALUE_NOT_ALLOWED", "executables.make.keyValueOperands", 2),
        arguments(List.of("dd", "of=/abs"), "OPERAND_INVALID", "executables.dd.keyValues.of", 1),
        arguments(List.of("dd", "if=a", "conv=notrunc"), "KEY_VALUE_NOT_ALLOWED", "executables.dd.keyValues", 2));
  }

  @ParameterizedTest
  @MethodSource("attacks")
  void refusesTheAttacks(List<String> argv, String code, String rule, int index) {
    Decision decision = authorize(argv).decision();

    assertThat(decision.code()).as(decision.message()).isEqualTo(code);
    assertThat(decision.rule()).as(decision.message()).isEqualTo(rule);
    assertThat(decision.argIndex()).as(decision.message()).isEqualTo(OptionalInt.of(index));
  }

  @Test
  void namesWhatTheToolsWrite() {
    assertThat(authorize(List.of("dd", "if=build/a.img", "of=out/b.bin")).writeTargets()).containsExactly(new WriteTarget(2, "out/b.bin"));
    assertThat(authorize(List.of("tar", "xzf", "dist/a.tgz", "-C", "out")).writeTargets()).containsExactly(new WriteTarget(4, "out"));
    assertThat(authorize(List.of("tar", "xfC", "dist/a.tar", "out")).writeTargets()).containsExactly(new WriteTarget(3, "out"));
  }

  @Test
  void eachToolIsReadInItsOwnSyntax() {
    assertThat(loaded.policy().executable("python3").orElseThrow().arguments().orElseThrow().syntax()).isEqualTo(OptionSyntax.OPTIONS_FIRST);
    assertThat(loaded.policy().executable("tar").orElseThrow().arguments().orElseThrow().syntax()).isEqualTo(OptionSyntax.TAR);
    assertThat(loaded.policy().executable("make").orElseThrow().arguments().orElseThrow().keyValueOperands())
        .isEqualTo(KeyValueMode.REFUSE);
    assertThat(loaded.policy().executable("dd").orElseThrow().arguments().orElseThrow().keyValues())
        .containsOnlyKeys("if", "of", "bs", "count", "skip", "status");
    for (ExecutableRule rule : loaded.policy().executables()) {
      assertThat(rule.examples().match()).as(rule.id()).isNotEmpty();
      assertThat(rule.examples().notMatch()).as(rule.id()).isNotEmpty();
    }
  }

  @Test
  void theFileAndItsParsedTextHashAlike() throws IOException {
    LoadedPolicy parsed = ExecutionPolicies.parse(Files.readString(FILE), "test");

    assertThat(parsed.hash()).isEqualTo(loaded.hash());
    assertThat(ExecutionPolicies.parse(ExecutionPolicies.toJson(loaded.policy()), "normal form").hash()).isEqualTo(loaded.hash());
  }
}
