package dev.capability.backend.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.backend.LaunchFailedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The execve limit follows Linux's rule from the stack limit. */
class ExecArgumentLimitTest {
  @TempDir Path dir;

  @Test
  void isAQuarterOfTheStackLimitWithinLinuxsBounds() {
    assertThat(ExecArgumentLimit.forStack("8388608", "here").maxBytes()).isEqualTo(2L << 20);
    assertThat(ExecArgumentLimit.forStack("unlimited", "here").maxBytes()).isEqualTo(6L << 20);
    assertThat(ExecArgumentLimit.forStack("1073741824", "here").maxBytes()).isEqualTo(6L << 20);
    assertThat(ExecArgumentLimit.forStack("65536", "here").maxBytes()).isEqualTo(128L << 10);
    assertThat(ExecArgumentLimit.forStack(null, "here").maxBytes()).isEqualTo(128L << 10);
    assertThat(ExecArgumentLimit.forStack("garbage", "here").maxBytes()).isEqualTo(128L << 10);
  }

  @Test
  void readsTheSoftStackLimitFromALimitsFile() throws Exception {
    Path limits = Files.writeString(dir.resolve("limits"), """
        Limit                     Soft Limit           Hard Limit           Units
        Max cpu time              unlimited            unlimited            seconds
        Max stack size            8388608              unlimited            bytes
        """);

    assertThat(ExecArgumentLimit.softLimit(limits)).hasValue("8388608");
    assertThat(ExecArgumentLimit.softLimit(dir.resolve("absent"))).isEmpty();
    assertThat(ExecArgumentLimit.inheritedFromThisProcess("here").maxBytes())
        .isBetween(ExecArgumentLimit.MIN_BYTES, ExecArgumentLimit.MAX_BYTES);
  }

  @Test
  void countsEveryStringWithItsNulAndPointerAndWhatIsReserved() {
    ExecArgumentLimit limit = new ExecArgumentLimit(100 + (4 + 8) + (4 + 8) + (5 + 8), "test", "here");
    limit.check("/x", List.of("abc", "def"), Map.of("A", "bc"), 100, "the launcher");

    assertThatThrownBy(() -> limit.check("/x", List.of("abc", "defg"), Map.of("A", "bc"), 100, "the launcher"))
        .isInstanceOfSatisfying(
            LaunchFailedException.class,
            e -> assertThat(e.code()).isEqualTo(LaunchFailedException.ARGUMENT_LIST_TOO_LONG))
        .hasMessageContaining("take 138 bytes")
        .hasMessageContaining("100 for the launcher included")
        .hasMessageContaining("over the 137 an execve here accepts (test)");
  }

  @Test
  void refusesOneArgumentOrVariableOverWhatLinuxAllowsOneString() {
    ExecArgumentLimit limit = ExecArgumentLimit.forStack("unlimited", "here");

    assertThatThrownBy(() -> limit.check("/x", List.of("/x"), Map.of("BIG", "v".repeat(128 * 1024)), 0, "-"))
        .isInstanceOfSatisfying(
            LaunchFailedException.class,
            e -> assertThat(e.code()).isEqualTo(LaunchFailedException.ARGUMENT_LIST_TOO_LONG))
        .hasMessageContaining("environment variable BIG takes");
    assertThatThrownBy(() -> limit.check("/x", List.of("/x", "a".repeat(128 * 1024)), Map.of(), 0, "-"))
        .isInstanceOfSatisfying(
            LaunchFailedException.class,
            e -> assertThat(e.code()).isEqualTo(LaunchFailedException.ARGUMENT_LIST_TOO_LONG))
        .hasMessageContaining("an argument of /x takes 131073 bytes, over the 131072");
    limit.check("/x", List.of("/x", "a".repeat(128 * 1024 - 1)), Map.of(), 0, "-");
  }
}
