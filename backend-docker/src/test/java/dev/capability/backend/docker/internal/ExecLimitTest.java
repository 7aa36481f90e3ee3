package dev.capability.backend.docker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.backend.LaunchFailedException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The execve limit follows Linux's rule from the stack limit the probe read. */
class ExecLimitTest {
  @Test
  void isAQuarterOfTheStackLimitWithinLinuxsBounds() {
    assertThat(ExecLimit.forStack(Optional.of("8388608")).maxBytes()).isEqualTo(2L << 20);
    assertThat(ExecLimit.forStack(Optional.of("unlimited")).maxBytes()).isEqualTo(6L << 20);
    assertThat(ExecLimit.forStack(Optional.of("1073741824")).maxBytes()).isEqualTo(6L << 20);
    assertThat(ExecLimit.forStack(Optional.of("65536")).maxBytes()).isEqualTo(128L << 10);
    assertThat(ExecLimit.forStack(Optional.empty()).maxBytes()).isEqualTo(128L << 10);
    assertThat(ExecLimit.forStack(Optional.of("garbage")).maxBytes()).isEqualTo(128L << 10);
  }

  @Test
  void countsEveryStringWithItsNulAndPointerAndTheDaemonsVariables() {
    ExecLimit limit = new ExecLimit(4096 + (4 + 8) + (4 + 8) + (5 + 8), "test");
    limit.check("/x", List.of("abc", "def"), Map.of("A", "bc"));

    assertThatThrownBy(() -> limit.check("/x", List.of("abc", "defg"), Map.of("A", "bc")))
        .isInstanceOfSatisfying(
            LaunchFailedException.class,
            e -> assertThat(e.code()).isEqualTo(LaunchFailedException.ARGUMENT_LIST_TOO_LONG))
        .hasMessageContaining("take 4134 bytes")
        .hasMessageContaining("over the 4133");
  }

  @Test
  void refusesOneEnvironmentVariableOverWhatLinuxAllowsOneString() {
    ExecLimit limit = ExecLimit.forStack(Optional.of("unlimited"));

    assertThatThrownBy(() -> limit.check("/x", List.of("/x"), Map.of("BIG", "v".repeat(128 * 1024))))
        .isInstanceOfSatisfying(
            LaunchFailedException.class,
            e -> assertThat(e.code()).isEqualTo(LaunchFailedException.ARGUMENT_LIST_TOO_LONG))
        .hasMessageContaining("environment variable BIG takes");
  }
}
