package dev.capability.backend.process.internal;

import static dev.capability.backend.process.internal.CommandFixtures.newMarker;
import static dev.capability.backend.process.internal.CommandFixtures.nulSeparated;
import static dev.capability.backend.process.internal.CommandFixtures.pinned;
import static dev.capability.backend.process.internal.CommandFixtures.script;
import static dev.capability.backend.process.internal.CommandFixtures.sessionBackend;
import static dev.capability.backend.process.internal.CommandFixtures.spec;
import static dev.capability.backend.process.internal.CommandFixtures.unhashed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProcessBackendTest {
  private static final Path CAT = Path.of("/bin/cat");
  private static final Path ENV = Path.of("/usr/bin/env");

  @TempDir Path dir;

  private final ProcessBackend backend = sessionBackend();

  private LaunchResult run(PinnedExecutable executable, String... arguments) {
    return backend.launch(spec(executable, dir, newMarker()).arguments(List.of(arguments)).build());
  }

  @Test
  void aFileCannotGrowBeyondTheSpecsMaxFileBytes() throws IOException {
    // dd reports the refused write itself; a sparse file's size is refused as well.
    PinnedExecutable writer =
        script(
            dir,
            "trap '' XFSZ; head -c 20971520 /dev/zero > big 2>/dev/null; echo $?;"
                + " truncate -s 1T sparse 2>/dev/null; echo $?");

    LaunchResult control =
        backend.launch(spec(writer, dir, newMarker()).maxFileBytes(1L << 40).build());
    long controlSize = Files.size(dir.resolve("big"));
    long controlSparse = Files.size(dir.resolve("sparse"));
    Files.delete(dir.resolve("big"));
    Files.delete(dir.resolve("sparse"));
    LaunchResult attack =
        backend.launch(spec(writer, dir, newMarker()).maxFileBytes(10L << 20).build());

    assertThat(control.stdout().text()).isEqualTo("0\n0\n");
    assertThat(List.of(controlSize, controlSparse)).containsExactly(20L << 20, 1L << 40);
    assertThat(attack.stdout().text()).isEqualTo("1\n1\n");
    assertThat(Files.size(dir.resolve("big"))).isEqualTo(10L << 20);
    assertThat(Files.exists(dir.resolve("sparse")) ? Files.size(dir.resolve("sparse")) : 0L)
        .isZero();
  }

  @Test
  void byDefaultAFileCannotGrowBeyondOneGibibyte() {
    PinnedExecutable writer =
        script(dir, "trap '' XFSZ; truncate -s 1T sparse 2>/dev/null; echo $?; ulimit -f");

    LaunchResult result = backend.launch(spec(writer, dir, newMarker()).build());

    assertThat(result.stdout().text())
        .isEqualTo("1\n" + (LaunchSpec.DEFAULT_MAX_FILE_BYTES / 512) + "\n");
  }

  @Test
  void passesAwkwardArgumentsUnchangedWithoutAShell() {
    PinnedExecutable echo = script(dir, "cat /proc/$$/cmdline");
    List<String> awkward =
        List.of(
            "two words",
            "'single'",
            "\"double\"",
            "",
            "line\nbreak",
            "$HOME",
            "*",
            "; rm -rf /",
            "`id`",
            "--",
            "-c",
            "--version",
            " leading and trailing ");

    LaunchResult result = run(echo, awkward.toArray(String[]::new));

    List<String> expected = new ArrayList<>(List.of("/bin/sh", echo.execPath()));
    expected.addAll(awkward);
    assertThat(nulSeparated(result.stdout().bytes())).isEqualTo(expected);
    assertThat(result.exitCode()).hasValue(0);
  }

  @Test
  void passesUnicodeArgumentsUnchanged() {
    String unicode = "héllo ☃ 日本 \uD83D\uDE00";
    assumeTrue(
        LaunchSpec.processCharsets().stream().allMatch(c -> c.newEncoder().canEncode(unicode)),
        "the JVM's platform charset cannot encode non-ASCII text");

    LaunchResult result = run(script(dir, "cat /proc/$$/cmdline"), unicode);

    assertThat(nulSeparated(result.stdout().bytes())).endsWith(unicode);
  }

  @Test
  void refusesAnArgumentThePlatformCharsetWouldAlter() {
    PinnedExecutable echo = script(dir, "echo ran");

    assertThatThrownBy(() -> run(echo, "fine", "lone \uD800 surrogate"))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("argument 2")
        .hasMessageContaining("cannot be encoded exactly");
  }

  @Test
  void refusesNulInArgumentsAndEnvironment() {
    PinnedExecutable echo = script(dir, "echo ran");

    assertThatThrownBy(() -> run(echo, "a\0b"))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("argument 1 contains a NUL");
    assertThatThrownBy(
            () ->
                backend.launch(
                    spec(echo, dir, newMarker()).environment(Map.of("BAD", "x\0y")).build()))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("value of environment variable BAD contains a NUL");
    assertThatThrownBy(
            () ->
                backend.launch(
                    spec(echo, dir, newMarker()).environment(Map.of("A=B", "x")).build()))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("'A=B' is empty or contains '='");
  }

  @Test
  void argv0IsTheExecPath() {
    LaunchResult result = run(pinned(CAT), "/proc/self/cmdline");

    assertThat(nulSeparated(result.stdout().bytes()))
        .containsExactly(CAT.toString(), "/proc/self/cmdline");
  }

  @Test
  void runsTheBytesBehindAProcFdExecPathEvenAfterTheFileIsReplaced() throws IOException {
    Path file = dir.resolve("pinned.sh");
    Files.writeString(file, "#!/bin/sh\necho original bytes\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    try (FileInputStream held = new FileInputStream(file.toFile())) {
      String execPath = "/proc/" + ProcessHandle.current().pid() + "/fd/" + descriptorOf(file);
      PinnedExecutable executable = pinned(file, execPath);
      Files.delete(file);
      Files.writeString(file, "#!/bin/sh\necho swapped bytes\n");
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));

      LaunchResult result = run(executable);

      assertThat(held.getFD().valid()).isTrue();
      assertThat(result.stdout().text()).isEqualTo("original bytes\n");
    }
  }

  @Test
  void givesTheCommandExactlyTheSpecEnvironment() {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("PLAIN", "1");
    environment.put("SPACED", "x y=z");
    environment.put("EMPTY", "");
    environment.put("lower_case", "ok");

    LaunchResult result =
        backend.launch(spec(pinned(ENV), dir, "unused").environment(environment).build());

    assertThat(result.stdout().text().lines().toList())
        .containsExactlyInAnyOrder("PLAIN=1", "SPACED=x y=z", "EMPTY=", "lower_case=ok");
  }

  @Test
  void givesTheCommandNoEnvironmentWhenTheSpecHasNone() {
    LaunchResult result =
        backend.launch(spec(pinned(ENV), dir, "unused").environment(Map.of()).build());

    assertThat(result.stdout().text()).isEmpty();
    assertThat(result.exitCode()).hasValue(0);
  }

  @Test
  void runsInTheSpecWorkingDirectory() throws IOException {
    Path work = Files.createDirectory(dir.resolve("work dir"));

    LaunchResult result =
        backend.launch(spec(pinned(Path.of("/bin/pwd")), work, newMarker()).build());

    assertThat(result.stdout().text()).isEqualTo(work.toRealPath() + "\n");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 42, 255})
  void reportsTheExitStatus(int status) {
    LaunchResult result = run(script(dir, "exit " + status));

    assertThat(result.exitCode()).hasValue(status);
    assertThat(result.timedOut()).isFalse();
    assertThat(result.outputLimitHit()).isFalse();
    assertThat(result.termination()).isEqualTo("none");
  }

  @ParameterizedTest
  @ValueSource(strings = {"KILL:9", "USR1:10", "TERM:15"})
  void reportsDeathBySignalAs128PlusTheSignalNumber(String signal) {
    String[] nameAndNumber = signal.split(":");

    LaunchResult result = run(script(dir, "kill -" + nameAndNumber[0] + " $$; sleep 5"));

    assertThat(result.exitCode()).hasValue(128 + Integer.parseInt(nameAndNumber[1]));
  }

  @Test
  void inheritsNoDescriptorsBeyondTheStandardThree() throws IOException {
    PinnedExecutable listFds = script(dir, "ls -l /proc/$$/fd");
    Map<String, String> descriptors = new LinkedHashMap<>();
    try (FileInputStream heldByTheJvm = new FileInputStream(listFds.path().toFile())) {
      LaunchResult result = run(listFds);

      assertThat(heldByTheJvm.getFD().valid()).isTrue();
      Matcher entry = Pattern.compile("(\\d+) -> (.*)").matcher(result.stdout().text());
      while (entry.find()) {
        descriptors.put(entry.group(1), entry.group(2));
      }
    }

    // The shell itself holds its script open; nothing else beyond 0, 1 and 2.
    descriptors.values().remove(listFds.path().toRealPath().toString());
    assertThat(descriptors.keySet()).containsExactlyInAnyOrder("0", "1", "2");
    assertThat(descriptors.get("0")).isEqualTo("/dev/null");
    assertThat(descriptors.get("1")).startsWith("pipe:");
    assertThat(descriptors.get("2")).startsWith("pipe:");
  }

  @Test
  void closesStdinWhenTheSpecGivesNoInput() {
    LaunchResult result = run(pinned(CAT));

    assertThat(result.timedOut()).isFalse();
    assertThat(result.exitCode()).hasValue(0);
    assertThat(result.stdout().size()).isZero();
  }

  @Test
  void writesTheSpecInputToStdinAndClosesIt() {
    byte[] input = new byte[1 << 20];
    new Random(7).nextBytes(input);

    LaunchResult result =
        backend.launch(
            spec(pinned(CAT), dir, newMarker()).stdin(input).maxOutputBytes(2L << 20).build());

    assertThat(result.exitCode()).hasValue(0);
    assertThat(result.stdout().bytes()).isEqualTo(input);
  }

  @Test
  void aCommandThatNeverReadsItsInputDoesNotBlockTheLaunch() {
    LaunchResult result =
        backend.launch(
            spec(script(dir, "exit 3"), dir, newMarker()).stdin(new byte[4 << 20]).build());

    assertThat(result.exitCode()).hasValue(3);
    assertThat(result.timedOut()).isFalse();
  }

  @Test
  void aCommandThatReadsPartOfItsInputGetsExactlyThatPart() {
    byte[] input = "0123456789abcdef".repeat(1 << 16).getBytes(StandardCharsets.US_ASCII);

    LaunchResult result =
        backend.launch(
            spec(pinned(Path.of("/usr/bin/head")), dir, newMarker())
                .arguments(List.of("-c", "10"))
                .stdin(input)
                .build());

    assertThat(result.stdout().text()).isEqualTo("0123456789");
    assertThat(result.exitCode()).hasValue(0);
  }

  @Test
  void boundsAnEndlessStdoutAndEndsTheCommand() {
    LaunchResult result =
        backend.launch(
            spec(pinned(Path.of("/usr/bin/yes")), dir, newMarker())
                .maxOutputBytes(64 * 1024)
                .build());

    assertThat(result.stdout().size()).isEqualTo(64 * 1024);
    assertThat(result.stdout().truncated()).isTrue();
    assertThat(result.stdout().text()).matches("(y\n)+");
    assertThat(result.outputLimitHit()).isTrue();
    assertThat(result.timedOut()).isFalse();
    assertThat(result.exitCode()).hasValue(128 + 15);
    assertThat(result.termination()).isEqualTo("session-signal");
  }

  @Test
  void boundsAHundredMegabytesOfZeros() {
    LaunchResult result =
        backend.launch(
            spec(pinned(Path.of("/usr/bin/head")), dir, newMarker())
                .arguments(List.of("-c", "100M", "/dev/zero"))
                .maxOutputBytes(1 << 20)
                .build());

    assertThat(result.stdout().bytes()).isEqualTo(new byte[1 << 20]);
    assertThat(result.stdout().truncated()).isTrue();
    assertThat(result.outputLimitHit()).isTrue();
  }

  @Test
  void boundsAnEndlessStderr() {
    LaunchResult result =
        backend.launch(
            spec(script(dir, "exec yes error >&2"), dir, newMarker())
                .maxOutputBytes(10_000)
                .build());

    assertThat(result.stderr().size()).isEqualTo(10_000);
    assertThat(result.stderr().truncated()).isTrue();
    assertThat(result.stdout().size()).isZero();
    assertThat(result.stdout().truncated()).isFalse();
    assertThat(result.outputLimitHit()).isTrue();
  }

  @Test
  void keepsOutputOfExactlyTheBoundWithoutTruncating() {
    LaunchResult result =
        backend.launch(
            spec(pinned(Path.of("/usr/bin/head")), dir, newMarker())
                .arguments(List.of("-c", "1000", "/dev/zero"))
                .maxOutputBytes(1000)
                .build());

    assertThat(result.stdout().size()).isEqualTo(1000);
    assertThat(result.stdout().truncated()).isFalse();
    assertThat(result.outputLimitHit()).isFalse();
    assertThat(result.exitCode()).hasValue(0);
  }

  @Test
  void drainsBothStreamsAtOnce() {
    // Each stream is larger than a pipe buffer: reading one after the other would deadlock.
    PinnedExecutable both =
        script(
            dir,
            "head -c 300000 /dev/zero | tr '\\0' a &\n"
                + "head -c 300000 /dev/zero | tr '\\0' b >&2\n"
                + "wait");

    LaunchResult result = run(both);

    assertThat(result.stdout().bytes()).isEqualTo(CommandFixtures.repeat('a', 300_000));
    assertThat(result.stderr().bytes()).isEqualTo(CommandFixtures.repeat('b', 300_000));
    assertThat(result.stdout().sha256()).isNotEqualTo(result.stderr().sha256());
    assertThat(result.outputLimitHit()).isFalse();
  }

  @Test
  void failsToLaunchAMissingExecutable() {
    Path missing = dir.resolve("missing");

    assertThatThrownBy(() -> run(unhashed(missing.toString())))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining(missing.toString())
        .hasMessageContaining("does not exist (ENOENT)")
        .extracting(e -> ((LaunchFailedException) e).code())
        .isEqualTo(LaunchFailedException.CODE);
  }

  @Test
  void failsToLaunchAFileWithoutExecutePermission() throws IOException {
    PinnedExecutable executable = script(dir, "echo ran");
    Files.setPosixFilePermissions(executable.path(), PosixFilePermissions.fromString("rw-r--r--"));

    assertThatThrownBy(() -> run(executable))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining(executable.path().toString())
        .hasMessageContaining("permission denied (EACCES)");
  }

  @Test
  void failsToLaunchADirectory() {
    assertThatThrownBy(() -> run(unhashed(dir.toString())))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining(dir.toString())
        .hasMessageContaining("not a regular file");
  }

  @Test
  void failsToLaunchARelativeExecPath() {
    assertThatThrownBy(() -> run(unhashed("bin/cat")))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("bin/cat")
        .hasMessageContaining("must be absolute");
  }

  @Test
  void failsToLaunchInAMissingOrNonDirectoryWorkingDirectory() throws IOException {
    PinnedExecutable echo = script(dir, "echo ran");
    Path missing = dir.resolve("no such dir");
    Path file = Files.createFile(dir.resolve("plain file"));

    assertThatThrownBy(() -> backend.launch(spec(echo, missing, newMarker()).build()))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("working directory " + missing + " does not exist");
    assertThatThrownBy(() -> backend.launch(spec(echo, file, newMarker()).build()))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("working directory " + file + " is not a directory");
  }

  @Test
  void refusesRequiredCapabilitiesItLacksBeforeLaunching() {
    Path proof = dir.resolve("ran");
    PinnedExecutable touch = script(dir, "touch '" + proof + "'");

    assertThatThrownBy(
            () ->
                backend.launch(
                    spec(touch, dir, newMarker())
                        .requiredCapabilities(
                            Set.of(
                                IsolationCapability.NETWORK_NAMESPACE,
                                IsolationCapability.READ_ONLY_ROOT))
                        .build()))
        .isInstanceOfSatisfying(
            BackendUnavailableException.class,
            e -> assertThat(e.code()).isEqualTo(BackendUnavailableException.ISOLATION_UNAVAILABLE))
        .hasMessageContaining("NETWORK_NAMESPACE")
        .hasMessageContaining("READ_ONLY_ROOT");
    assertThat(proof).doesNotExist();
  }

  @Test
  void runsWhenTheRequiredCapabilitiesAreProvided() {
    assumeTrue(backend.capabilities().contains(IsolationCapability.SESSION_TERMINATION));

    LaunchResult result =
        backend.launch(
            spec(script(dir, "echo ran"), dir, newMarker())
                .requiredCapabilities(Set.of(IsolationCapability.SESSION_TERMINATION))
                .build());

    assertThat(result.stdout().text()).isEqualTo("ran\n");
  }

  @Test
  void advertisesOnlySessionTerminationAndTheDiskBounds() {
    assertThat(backend.capabilities())
        .containsExactlyInAnyOrder(
            IsolationCapability.SESSION_TERMINATION,
            IsolationCapability.FILE_SIZE_LIMIT,
            IsolationCapability.WRITE_BUDGET);
    ProcessBackend withoutSetsid = new ProcessBackend(SessionSupport.unavailable("no setsid here"));
    assertThat(withoutSetsid.capabilities())
        .containsExactlyInAnyOrder(
            IsolationCapability.FILE_SIZE_LIMIT, IsolationCapability.WRITE_BUDGET);
    assertThatThrownBy(
            () ->
                withoutSetsid.launch(
                    spec(script(dir, "echo ran"), dir, newMarker())
                        .requiredCapabilities(Set.of(IsolationCapability.SESSION_TERMINATION))
                        .build()))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("SESSION_TERMINATION");
  }

  @Test
  void saysInItsDiagnosticsThatItIsNotASandbox() {
    Map<String, String> diagnostics =
        new ProcessBackend(SessionSupport.unavailable("no setsid here")).diagnostics();

    assertThat(diagnostics.get("boundary")).contains("not a sandbox");
    assertThat(diagnostics.get("SESSION_TERMINATION")).isEqualTo("no setsid here");
    assertThat(diagnostics.get("NETWORK_NAMESPACE")).contains("host network");
    assertThat(diagnostics.get("TREE_TERMINATION")).contains("not provided");
    assertThat(diagnostics.get("TERMINATION_ON_HOST_EXIT")).contains("not provided").contains("keep running");
  }

  @Test
  void reportsWhenItStartedAndFinished() {
    LaunchResult result = run(script(dir, "exit 0"));

    assertThat(result.startedAt()).isBeforeOrEqualTo(result.finishedAt());
  }

  /** The descriptor this JVM opened on {@code file} most recently. */
  private static int descriptorOf(Path file) throws IOException {
    Path real = file.toRealPath();
    Set<Integer> matches = new HashSet<>();
    try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : descriptors.toList()) {
        try {
          if (Files.readSymbolicLink(fd).equals(real)) {
            matches.add(Integer.parseInt(fd.getFileName().toString()));
          }
        } catch (IOException e) {
          // closed while listing
        }
      }
    }
    return matches.stream()
        .max(Integer::compare)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "no descriptor open on " + real + " in " + Arrays.toString(matches.toArray())));
  }
}
