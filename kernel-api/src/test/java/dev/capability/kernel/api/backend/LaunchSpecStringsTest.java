package dev.capability.kernel.api.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LaunchSpecStringsTest {
  private static final PinnedExecutable TRUE =
      new PinnedExecutable(
          Path.of("/usr/bin/true"),
          "0".repeat(64),
          "/proc/self/fd/7",
          PinnedExecutable.Pinning.PROC_FD);

  private static LaunchSpec.Builder spec() {
    return LaunchSpec.builder(TRUE).workingDirectory(Path.of("/tmp"));
  }

  @Test
  void passesOrdinaryStrings() {
    assertThatCode(
            () ->
                spec()
                    .arguments(List.of("", "--x", "a b", "caf\u00e9"))
                    .environment(Map.of("PATH", "/usr/bin", "EMPTY", ""))
                    .repository(Path.of("/tmp/repo"))
                    .writableRoots(List.of(Path.of("/tmp/repo/out")))
                    .protectedPaths(List.of(Path.of("/tmp/repo/.git")))
                    .build()
                    .requireExactStrings("true"))
        .doesNotThrowAnyException();
  }

  @Test
  void refusesANulInAnArgumentNamingWhichOne() {
    assertThatThrownBy(
            () -> spec().arguments(List.of("ok", "a\0b")).build().requireExactStrings("true"))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("cannot launch true: argument 2 contains a NUL character");
  }

  @Test
  void refusesANulInAnEnvironmentValueWithoutQuotingTheValue() {
    assertThatThrownBy(
            () ->
                spec()
                    .environment(Map.of("TOKEN", "hunter2\0tail"))
                    .build()
                    .requireExactStrings("true"))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("value of environment variable TOKEN contains a NUL")
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void refusesAnEnvironmentNameThatIsEmptyOrHoldsAnEqualsSign() {
    assertThatThrownBy(
            () -> spec().environment(Map.of("A=B", "x")).build().requireExactStrings("true"))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("'A=B' is empty or contains '='");
    assertThatThrownBy(
            () -> spec().environment(Map.of("", "x")).build().requireExactStrings("true"))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("'' is empty or contains '='");
  }

  @Test
  void refusesANulInTheExecPath() {
    PinnedExecutable nulPath =
        new PinnedExecutable(
            Path.of("/usr/bin/true"), "0".repeat(64), "/usr/bin/tr\0ue", TRUE.pinning());
    assertThatThrownBy(
            () ->
                LaunchSpec.builder(nulPath)
                    .workingDirectory(Path.of("/tmp"))
                    .build()
                    .requireExactStrings("true"))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("exec path contains a NUL");
  }

  @Test
  void refusesAStringThePlatformCharsetCannotEncodeInsteadOfReplacingIt() {
    // A lone surrogate is a Java string no charset encodes; the JDK would pass '?' instead.
    assertThatThrownBy(
            () -> spec().arguments(List.of("\ud800")).build().requireExactStrings("true"))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("argument 1 cannot be encoded exactly in the platform charset")
        .hasMessageContaining("LANG=C.UTF-8");
  }

  @Test
  void theCharsetsStartWithTheDefaultOne() {
    assertThat(LaunchSpec.processCharsets()).first().isEqualTo(Charset.defaultCharset());
    assertThat(LaunchSpec.processCharsets()).doesNotHaveDuplicates();
  }
}
