package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Command-line arguments that are not UTF-8 are refused like such standard input
 * ({@code INPUT_NOT_UTF8}), in a real CLI process whose argv holds the raw bytes.
 */
class NonUtf8ArgumentsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path XARGS = Path.of("/usr/bin/xargs");
  private static final byte[] NOT_UTF8 = {'a', (byte) 0xFF, (byte) 0xFE};
  /** How GNU xargs exits when the command it ran exited with 1 to 125. */
  private static final int XARGS_COMMAND_FAILED = 123;

  @TempDir Path tmp;
  private Path tool;
  private Path policy;

  @BeforeEach
  void fixtures() throws Exception {
    tool = Files.createDirectories(tmp.resolve("bin")).resolve("tool");
    Files.writeString(tool, "#!/bin/sh\nprintf 'ran:%s\\n' \"$*\"\n");
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    tool = tool.toRealPath();
    policy = Files.createDirectories(tmp.resolve("etc")).resolve("policy.json");
    Files.writeString(policy, """
        {"version": 1, "network": "host", "allowUnisolatedFallback": true,
         "executables": {"tool": {"path": "%s", "exact": [["\u00e9\ufffd"]]}}}
        """.formatted(tool));
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-r--r--"));
  }

  @Test
  void checkRefusesAnArgvWordThatIsNotUtf8AsItRefusesSuchStandardInput() throws Exception {
    Run fromArgv = cli(List.of(text("check"), text("--json"), text("--policy"), text(policy.toString()), text("--"),
        text(tool.toString()), NOT_UTF8), new byte[0]);
    Run fromStdin = cli(List.of(text("check"), text("--json"), text("--policy"), text(policy.toString())),
        concat(text(tool + " "), NOT_UTF8));

    assertThat(errorCode(fromStdin)).isEqualTo("INPUT_NOT_UTF8");
    assertThat(errorCode(fromArgv)).isEqualTo("INPUT_NOT_UTF8");
    assertThat(fromArgv.out()).contains("argv[1]");
    assertThat(fromArgv.exitCode()).as(fromArgv.toString()).isEqualTo(fromStdin.exitCode()).isEqualTo(XARGS_COMMAND_FAILED);
  }

  @Test
  void execRunsNothingForAnArgvWordOrCommandStringThatIsNotUtf8() throws Exception {
    Run argv = cli(List.of(text("exec"), text("--policy"), text(policy.toString()), text("--"),
        text(tool.toString()), NOT_UTF8), new byte[0]);
    Run command = cli(List.of(text("exec"), text("--policy"), text(policy.toString()), text("--command"),
        concat(text(tool + " "), NOT_UTF8)), new byte[0]);

    for (Run run : List.of(argv, command)) {
      assertThat(run.exitCode()).as(run.toString()).isEqualTo(XARGS_COMMAND_FAILED);
      assertThat(run.out()).doesNotContain("ran:");
      assertThat(run.err()).contains("INPUT_NOT_UTF8");
    }
  }

  @Test
  void valid8BitTextAndATypedReplacementCharacterStillRun() throws Exception {
    Run run = cli(List.of(text("exec"), text("--policy"), text(policy.toString()), text("--"),
        text(tool.toString()), text("é\uFFFD")), new byte[0]);

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo("ran:é\uFFFD\n");
  }

  @Test
  void argumentsMarkedNotUtf8ExitAsRefusedStandardInputDoes() {
    // xargs reports only that the CLI failed; the exact codes, in process, with the argument marked as Main marks it.
    String replaced = new String(NOT_UTF8, StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CapabilityCli cli = new CapabilityCli(new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), Set.of(replaced, "echo " + replaced, "TCK_X=" + replaced));
    CapabilityCli stdin = new CapabilityCli(new ByteArrayInputStream(concat(text(tool + " "), NOT_UTF8)),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), Map.of());

    assertThat(cli.run("check", "--policy", policy.toString(), "--", tool.toString(), replaced))
        .isEqualTo(stdin.run("check", "--policy", policy.toString())).isEqualTo(ExitCodes.DENIED);
    assertThat(cli.run("exec", "--policy", policy.toString(), "--", tool.toString(), replaced)).isEqualTo(ExitCodes.KERNEL_REFUSED);
    assertThat(cli.run("parse", "echo " + replaced)).isEqualTo(ExitCodes.DENIED);
    assertThat(cli.run("exec", "--policy", policy.toString(), "--env", "TCK_X=" + replaced, "--", tool.toString(), "é\uFFFD"))
        .isEqualTo(ExitCodes.KERNEL_REFUSED);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--env TCK_X on the command line is not valid UTF-8");
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("INPUT_NOT_UTF8").doesNotContain("ran:");
    assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("ran:");
  }

  @Test
  void rawBytesDecideWhichArgumentsAreNotUtf8() {
    byte[] cmdline = concat(text("java\0-cp\0x\0Main\0ok\0"), NOT_UTF8, text("\0é\0\uFFFD\0"));
    String replaced = new String(NOT_UTF8, StandardCharsets.UTF_8);

    ProcessArguments utf8Locale = ProcessArguments.of(
        new String[] {"ok", replaced, "é", "\uFFFD"}, Optional.of(cmdline), StandardCharsets.UTF_8);
    // Under the C locale the JVM replaced every byte above 0x7F, valid UTF-8 included.
    ProcessArguments asciiLocale = ProcessArguments.of(
        new String[] {"ok", "a\uFFFD\uFFFD", "\uFFFD\uFFFD", "\uFFFD\uFFFD\uFFFD"}, Optional.of(cmdline), StandardCharsets.US_ASCII);

    assertThat(utf8Locale.arguments()).containsExactly("ok", replaced, "é", "\uFFFD");
    assertThat(utf8Locale.notUtf8()).containsExactly(replaced);
    assertThat(asciiLocale.arguments()).containsExactly("ok", "a\uFFFD\uFFFD", "é", "\uFFFD");
    assertThat(asciiLocale.notUtf8()).containsExactly("a\uFFFD\uFFFD");
  }

  @Test
  void withoutMatchingRawBytesEveryArgumentHoldingAReplacementCharacterIsSuspect() {
    String[] arguments = {"ok", "a\uFFFD"};

    ProcessArguments absent = ProcessArguments.of(arguments, Optional.empty(), StandardCharsets.UTF_8);
    // An @argfile: the raw arguments are not main's.
    ProcessArguments other = ProcessArguments.of(arguments, Optional.of(text("java\0@args\0")), StandardCharsets.UTF_8);

    assertThat(absent.notUtf8()).containsExactly("a\uFFFD");
    assertThat(other.notUtf8()).containsExactly("a\uFFFD");
    assertThat(other.arguments()).containsExactly("ok", "a\uFFFD");
  }

  /**
   * Runs the CLI in its own JVM with exactly these argument bytes. ProcessBuilder encodes
   * arguments as text, so the bytes go through a file that {@code xargs -0} reads and passes on
   * as the JVM's argv, byte for byte; no shell is involved.
   */
  private Run cli(List<byte[]> arguments, byte[] stdin) throws Exception {
    assumeTrue(Files.isExecutable(XARGS), "needs " + XARGS + " to pass raw argument bytes");
    assumeTrue(Files.isReadable(Path.of("/proc/self/cmdline")), "needs Linux's /proc/self/cmdline");
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    for (byte[] argument : arguments) {
      file.write(argument);
      file.write(0);
    }
    Path argumentFile = Files.write(Files.createTempFile(tmp, "argv", ".bin"), file.toByteArray());
    Path input = Files.write(Files.createTempFile(tmp, "stdin", ".bin"), stdin);
    Path out = tmp.resolve("out-" + System.nanoTime());
    Path err = tmp.resolve("err-" + System.nanoTime());
    ProcessBuilder builder = new ProcessBuilder(XARGS.toString(), "-0", "-a", argumentFile.toString(),
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
        "dev.capability.cli.Main")
        .redirectInput(input.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().put("LC_ALL", "C.UTF-8");
    Process process = builder.start();
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the CLI ended").isTrue();
    return new Run(process.exitValue(), new String(Files.readAllBytes(out), StandardCharsets.UTF_8), new String(Files.readAllBytes(err), StandardCharsets.UTF_8));
  }

  private static String errorCode(Run run) throws Exception {
    JsonNode error = JSON.readTree(run.out()).get("error");
    assertThat(error).as(run.toString()).isNotNull();
    return error.get("code").asText();
  }

  private static byte[] text(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      bytes.writeBytes(part);
    }
    return bytes.toByteArray();
  }

  private record Run(int exitCode, String out, String err) {}
}
