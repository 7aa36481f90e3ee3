package dev.capability.kernel.core.internal.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.DoubleDashMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.FlagRule;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.SubcommandRule;
import dev.capability.kernel.api.policy.ValueKind;
import dev.capability.kernel.api.policy.ValueRule;
import dev.capability.kernel.core.internal.authority.WriteTarget;
import dev.capability.kernel.core.internal.policy.CommandAuthorizer.Authorization;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Path arguments marked {@code write} are handed to the effective authority with their argv index. */
class WriteTargetAuthorizationTest {

  private static final ExecutionPolicy POLICY = ExecutionPolicy.builder()
      .executable(ExecutableRule.named("fmt")
          .arguments(ArgumentRules.builder()
              .flag("--out", FlagRule.withValue(ValueRule.writePath()))
              .flag("--config", FlagRule.withValue(ValueRule.path()))
              .operands(OperandRule.any(ValueRule.writePath()))
              .doubleDash(DoubleDashMode.OPTIONAL)
              .build())
          .build())
      .executable(ExecutableRule.named("vcs")
          .arguments(ArgumentRules.builder()
              .subcommand("rm", SubcommandRule.of(ArgumentRules.builder().operands(OperandRule.any(ValueRule.writePath())).build()))
              .subcommand("show", SubcommandRule.of(ArgumentRules.builder().operands(OperandRule.any(ValueRule.path())).build()))
              .build())
          .build())
      .executable(ExecutableRule.named("ls").exact("-l").build())
      .build();

  private final CommandAuthorizer authorizer = new CommandAuthorizer();

  @Test
  void collectsWrittenOperandsAndFlagValuesInArgvOrder() {
    Authorization authorization = authorizer.authorize(
        POLICY, List.of("fmt", "--config", "fmt.toml", "--out", "build/out.txt", "--", "src/A.java", "-odd"), Optional.empty());

    assertThat(authorization.decision().allowed()).isTrue();
    assertThat(authorization.writeTargets()).containsExactly(
        new WriteTarget(4, "build/out.txt"), new WriteTarget(6, "src/A.java"), new WriteTarget(7, "-odd"));
  }

  @Test
  void collectsTheAttachedValueOfALongFlag() {
    Authorization authorization = authorizer.authorize(POLICY, List.of("fmt", "--out=dist/x"), Optional.empty());

    assertThat(authorization.writeTargets()).containsExactly(new WriteTarget(1, "dist/x"));
  }

  @Test
  void readsWriteMarksInSubcommands() {
    assertThat(authorizer.authorize(POLICY, List.of("vcs", "rm", "a", "b"), Optional.empty()).writeTargets())
        .containsExactly(new WriteTarget(2, "a"), new WriteTarget(3, "b"));
    assertThat(authorizer.authorize(POLICY, List.of("vcs", "show", "a"), Optional.empty()).writeTargets()).isEmpty();
  }

  @Test
  void exactArgumentsAndDenialsHaveNoWriteTargets() {
    assertThat(authorizer.authorize(POLICY, List.of("ls", "-l"), Optional.empty()).writeTargets()).isEmpty();
    Authorization denied = authorizer.authorize(POLICY, List.of("fmt", "--out", "x", "--nope"), Optional.empty());
    assertThat(denied.decision().allowed()).isFalse();
    assertThat(denied.writeTargets()).isEmpty();
  }

  @Test
  void onlyAPathCanBeAWriteTarget() {
    assertThatThrownBy(() -> new ValueRule(ValueKind.LITERAL, Set.of("a"), OptionalLong.empty(), OptionalLong.empty(), true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("only a path");
  }
}
