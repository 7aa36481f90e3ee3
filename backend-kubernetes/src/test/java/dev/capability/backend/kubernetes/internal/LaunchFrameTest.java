package dev.capability.backend.kubernetes.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.testing.RequiredBackends;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The launch frame: what it holds, what it refuses, and the pod's script reading it for real. The
 * script runs under each POSIX shell an image commonly has ({@code dash}, {@code bash}, busybox
 * {@code ash}), inside a Bubblewrap sandbox of this machine standing in for the pod (the shells
 * are this machine's; an image's are the same programs), fed the frame, the input and then more
 * bytes on a stdin that stays open, as the exec stream does.
 */
class LaunchFrameTest {
  private static final Path BWRAP = Path.of("/usr/bin/bwrap");
  private static final String EXECUTABLE = PodManifest.EXECUTABLE_DIRECTORY + "/tool";

  @TempDir Path scratch;

  private static LaunchSpec.Builder spec() {
    return MockCluster.spec().timeout(Duration.ofSeconds(30)).terminationGrace(Duration.ofMillis(1500));
  }

  @Test
  void theExecsArgvHoldsNothingOfTheSpecButItsDurations() {
    LaunchSpec spec =
        spec().environment(Map.of("TOKEN", "v4lue")).arguments(List.of("--secret-argument")).stdin(new byte[] {1}).build();

    List<String> argv = LaunchFrame.command(spec);

    assertThat(argv).containsExactly("timeout", "-s", "TERM", "-k", "1.500", "30.000", "sh", "-c", LaunchFrame.SCRIPT, "ck-launch");
    assertThat(String.join(" ", argv)).doesNotContain("v4lue", "TOKEN", "--secret-argument", "/true");
  }

  @Test
  void theFrameCountsLinesSoThatValuesTravelUnescaped() {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("Z", "");
    environment.put("A", "two\nlines\n");
    LaunchSpec spec =
        spec().environment(environment).arguments(List.of("", "a 'quoted' \\ $VALUE")).stdin("xyz".getBytes(StandardCharsets.UTF_8)).build();

    String frame = new String(LaunchFrame.encode(spec, EXECUTABLE), StandardCharsets.UTF_8);

    assertThat(frame)
        .isEqualTo(
            "ck-launch 1\n3\n5\n"
                + "3\nA=two\nlines\n\n"
                + "1\nZ=\n"
                + "1\n" + EXECUTABLE + "\n"
                + "1\n\n"
                + "1\na 'quoted' \\ $VALUE\n");
  }

  @Test
  void aLoneSurrogateIsRefusedNamingItsPlaceNotItsValue() {
    LaunchSpec spec = spec().arguments(List.of("ok", "bad\uD800secret")).build();

    assertThatThrownBy(() -> LaunchFrame.encode(spec, EXECUTABLE))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("argument 2")
        .hasMessageNotContaining("secret")
        .satisfies(e -> assertThat(((LaunchFailedException) e).code()).isEqualTo(LaunchFailedException.CODE));
  }

  @Test
  void aNulIsRefusedByTheFrameItself() {
    LaunchSpec spec = spec().environment(Map.of("TOKEN", "a\0secret")).build();

    assertThatThrownBy(() -> LaunchFrame.encode(spec, EXECUTABLE))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("environment variable TOKEN")
        .hasMessageContaining("NUL")
        .hasMessageNotContaining("secret");
  }

  @Test
  void stringsBeyondWhatAnExecveInThePodTakesAreRefused() {
    LaunchSpec spec = spec().environment(Map.of("BIG", "x".repeat(200 * 1024))).build();

    assertThatThrownBy(() -> LaunchFrame.encode(spec, EXECUTABLE))
        .isInstanceOf(LaunchFailedException.class)
        .satisfies(e -> assertThat(((LaunchFailedException) e).code()).isEqualTo(LaunchFailedException.ARGUMENT_LIST_TOO_LONG));
  }

  /** The shells of this machine the script runs under: argv prefixes before {@code -c}. */
  static Stream<List<String>> shells() {
    List<List<String>> shells = new ArrayList<>();
    for (List<String> shell : List.of(List.of("/usr/bin/dash"), List.of("/usr/bin/bash"), List.of("/usr/bin/busybox", "sh"))) {
      if (Files.isExecutable(Path.of(shell.get(0)))) {
        shells.add(shell);
      }
    }
    if (shells.isEmpty()) {
      shells.add(List.of("/bin/sh"));
    }
    return shells.stream();
  }

  private record Ran(int status, byte[] stdout, String stderr) {}

  /**
   * Runs the script in a sandbox with {@code stdin} on its stdin, which is left open until the
   * script's command ends: only the frame's own bounds can end what the command reads.
   */
  private Ran run(List<String> shell, byte[] stdin) throws Exception {
    if (!Files.isExecutable(BWRAP)) {
      return RequiredBackends.skipOrFail("bwrap is not installed at " + BWRAP);
    }
    List<String> argv =
        new ArrayList<>(
            List.of(BWRAP.toString(), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
                "--unshare-all", "--die-with-parent", "--new-session", "--"));
    argv.addAll(shell);
    argv.addAll(List.of("-c", LaunchFrame.SCRIPT, LaunchFrame.SCRIPT_NAME));
    Path out = scratch.resolve("out");
    Path err = scratch.resolve("err");
    Process process = new ProcessBuilder(argv).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    try (OutputStream in = process.getOutputStream()) {
      in.write(stdin);
      in.write("bytes after the input, never the command's".getBytes(StandardCharsets.UTF_8));
      in.flush();
      // A safety bound only: a command reading past its input would block here until it.
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("the script's command did not end: " + Files.readString(err));
      }
    } catch (IOException e) {
      // The script ended without reading all that was written; its status says why.
      process.waitFor();
    }
    int status = process.waitFor();
    String stderr = Files.readString(err);
    if (status != 0 && stderr.contains("bwrap:")) {
      return RequiredBackends.skipOrFail("bwrap cannot make a sandbox here: " + stderr.strip());
    }
    return new Ran(status, Files.readAllBytes(out), stderr);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  @ParameterizedTest
  @MethodSource("shells")
  void theScriptGivesTheCommandExactlyTheFramesEnvironment(List<String> shell) throws Exception {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("TOKEN", "s3cret value with 'quotes', \"double\", \\backslash, $HOME and `ticks`");
    environment.put("MULTI", "line one\nline two\n\n");
    environment.put("EMPTY", "");
    environment.put("UNICODE", "gr\u00fc\u00df \u2603");
    LaunchSpec spec = spec().environment(environment).arguments(List.of("-0")).build();

    Ran ran = run(shell, LaunchFrame.encode(spec, "/usr/bin/env"));

    assertThat(ran.status()).as(ran.stderr()).isZero();
    List<String> printed = Arrays.asList(new String(ran.stdout(), StandardCharsets.UTF_8).split("\0"));
    assertThat(printed)
        .containsExactlyInAnyOrder(
            "TOKEN=" + environment.get("TOKEN"), "MULTI=" + environment.get("MULTI"), "EMPTY=", "UNICODE=" + environment.get("UNICODE"));
  }

  @ParameterizedTest
  @MethodSource("shells")
  void theScriptPassesTheArgumentsAndExactlyTheInputThenEndOfFile(List<String> shell) throws Exception {
    byte[] input = "first\nsecond line, no newline at the end".getBytes(StandardCharsets.UTF_8);
    LaunchSpec printArguments =
        spec().arguments(List.of("[%s]", "", "two words", "new\nline", "-n", "$(not run)")).build();

    Ran arguments = run(shell, LaunchFrame.encode(printArguments, "/usr/bin/printf"));
    Ran cat = run(shell, concat(LaunchFrame.encode(spec().stdin(input).build(), "/bin/cat"), input));

    assertThat(arguments.status()).as(arguments.stderr()).isZero();
    assertThat(new String(arguments.stdout(), StandardCharsets.UTF_8)).isEqualTo("[][two words][new\nline][-n][$(not run)]");
    assertThat(cat.status()).as(cat.stderr()).isZero();
    assertThat(cat.stdout()).isEqualTo(input);
  }

  @ParameterizedTest
  @MethodSource("shells")
  void withoutInputTheCommandReadsEndOfFileAndItsStatusIsTheExecs(List<String> shell) throws Exception {
    Ran cat = run(shell, LaunchFrame.encode(spec().build(), "/bin/cat"));
    Ran exit = run(shell, LaunchFrame.encode(spec().arguments(List.of("-c", "exit 7")).build(), "/bin/sh"));

    assertThat(cat.status()).as(cat.stderr()).isZero();
    assertThat(cat.stdout()).isEmpty();
    assertThat(exit.status()).isEqualTo(7);
  }

  @ParameterizedTest
  @MethodSource("shells")
  void aFrameTheScriptCannotReadRunsNothing(List<String> shell) throws Exception {
    byte[] wrongVersion = "ck-launch 2\n0\n1\n1\n/usr/bin/touch\n".getBytes(StandardCharsets.UTF_8);
    byte[] badCount = "ck-launch 1\n0\n1x\n1\n/usr/bin/env\n".getBytes(StandardCharsets.UTF_8);
    byte[] hugeCount = "ck-launch 1\n0\n99999999999999999999\n1\n/usr/bin/env\n".getBytes(StandardCharsets.UTF_8);
    byte[] noItems = "ck-launch 1\n0\n0\n".getBytes(StandardCharsets.UTF_8);

    Ran version = run(shell, wrongVersion);
    Ran count = run(shell, badCount);
    Ran huge = run(shell, hugeCount);
    Ran none = run(shell, noItems);

    assertThat(version.status()).isEqualTo(LaunchFrame.FRAME_UNREADABLE_STATUS);
    assertThat(version.stderr()).contains("launch frame on stdin is malformed (version)");
    assertThat(count.status()).isEqualTo(LaunchFrame.FRAME_UNREADABLE_STATUS);
    assertThat(count.stderr()).contains("malformed (item count)");
    assertThat(count.stdout()).isEmpty();
    assertThat(huge.status()).isEqualTo(LaunchFrame.FRAME_UNREADABLE_STATUS);
    assertThat(huge.stdout()).isEmpty();
    assertThat(none.status()).as("env without a command would print its environment").isEqualTo(LaunchFrame.FRAME_UNREADABLE_STATUS);
    assertThat(none.stdout()).isEmpty();
  }
}
