package dev.capability.backend.bwrap.internal;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.backend.LaunchFailedException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LaunchStringsTest {
  private final Path dir = Path.of("/tmp");

  @Test
  void refusesWhatCannotReachTheCommandExactlyWithoutQuotingValues() {
    String secret = "hunter2\0tail";
    assertThatThrownBy(
            () ->
                LaunchStrings.check(
                    Sandboxes.spec(Sandboxes.system("true"), dir)
                        .environment(Map.of("TOKEN", secret))
                        .build()))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("environment variable TOKEN")
        .hasMessageNotContaining("hunter2");
    assertThatThrownBy(
            () ->
                LaunchStrings.check(
                    Sandboxes.spec(Sandboxes.system("true"), dir)
                        .environment(Map.of("A=B", "x"))
                        .build()))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("contains '='");
    assertThatThrownBy(
            () ->
                LaunchStrings.check(
                    Sandboxes.spec(Sandboxes.system("true"), dir)
                        .arguments(List.of("ok", "a\0b"))
                        .build()))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("argument 2");
    assertThatCode(
            () ->
                LaunchStrings.check(
                    Sandboxes.spec(Sandboxes.system("true"), dir)
                        .arguments(List.of("", "--x", "a b"))
                        .build()))
        .doesNotThrowAnyException();
  }
}
