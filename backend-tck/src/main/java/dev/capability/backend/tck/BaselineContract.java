package dev.capability.backend.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The baseline contract every backend keeps, whatever it isolates: argv without a shell, exactly
 * the spec's environment and working directory, exit statuses, stdin, bounded output, launch
 * failures and refusals. Timeouts and leftovers are in {@link TerminationContract}.
 */
public interface BaselineContract extends BackendUnderTest {

  @Test
  default void awkwardArgumentsReachTheCommandExactly() {
    assertArgumentsRoundTrip(Programs.AWKWARD_ARGUMENTS);
  }

  @Property(tries = 40)
  @AddLifecycleHook(AbortWhenBackendUnavailable.class)
  default void anyArgumentsReachTheCommandExactly(
      @ForAll("awkwardArgumentLists") List<String> arguments) {
    assertArgumentsRoundTrip(arguments);
  }

  /** Lists of up to six strings built from shell metacharacters, dashes, space and Unicode. */
  @Provide
  default Arbitrary<List<String>> awkwardArgumentLists() {
    Arbitrary<String> piece =
        Arbitraries.of(
            "a",
            "Z",
            "0",
            " ",
            "  ",
            "\t",
            "\n",
            "\r",
            "'",
            "\"",
            "\\",
            "$",
            "`",
            "*",
            "?",
            "~",
            "#",
            ";",
            "|",
            "&",
            "<",
            ">",
            "(",
            ")",
            "{",
            "}",
            "=",
            "%",
            "%s",
            "-",
            "--",
            "é",
            "☃",
            "日本",
            "\uD83D\uDE00",
            "\u00a0",
            "\u202e");
    Arbitrary<String> argument = piece.list().ofMaxSize(6).map(pieces -> String.join("", pieces));
    return argument.list().ofMaxSize(6);
  }

  private void assertArgumentsRoundTrip(List<String> arguments) {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      // A fixed first argument, so that no arguments and one empty argument differ.
      List<String> argv = new ArrayList<>(List.of(Programs.EACH_ARGUMENT_NUL_TERMINATED, "first"));
      argv.addAll(arguments);
      LaunchSpec spec = launches.spec(Tools.find("printf"), argv.toArray(String[]::new)).build();
      boolean mustArrive = Tools.jvmPassesUnicode() || arguments.stream().allMatch(Tools::isAscii);

      LaunchResult result;
      try {
        result = launches.run(spec);
      } catch (LaunchFailedException e) {
        if (mustArrive) {
          throw e;
        }
        // This JVM cannot encode the text for a child process; refusing is the safe outcome.
        return;
      }

      List<String> expected = new ArrayList<>(List.of("first"));
      expected.addAll(arguments);
      assertThat(Tools.nulTerminated(result.stdout().bytes()))
          .as("arguments as the command received them")
          .isEqualTo(expected);
      assertThat(result.exitCode()).hasValue(0);
    }
  }

  @Test
  default void commandSeesExactlyTheSpecEnvironment() {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("PLAIN", "1");
    environment.put("SPACED", "x y=z");
    environment.put("EMPTY", "");
    environment.put("NEWLINE", "first\nsecond");
    environment.put("lower_case", "ok");
    environment.put("QUOTES", "'\"`$HOME");
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);

      LaunchResult result =
          launches.run(launches.spec(Tools.find("env"), "-0").environment(environment).build());

      assertThat(Tools.nulTerminated(result.stdout().bytes()))
          .as("the command's environment, one entry per variable")
          .containsExactlyInAnyOrderElementsOf(
              environment.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
      assertThat(result.exitCode()).hasValue(0);
    }
  }

  @Test
  default void commandSeesNoEnvironmentWhenTheSpecHasNone() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);

      LaunchResult result =
          launches.run(launches.spec(Tools.find("env"), "-0").environment(Map.of()).build());

      assertThat(Tools.nulTerminated(result.stdout().bytes())).isEmpty();
      assertThat(result.exitCode()).hasValue(0);
    }
  }

  @Test
  default void commandRunsInTheSpecWorkingDirectory() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path directory = workspace.directory(workspace.repository().resolve("work dir"));

      LaunchResult result =
          launches.run(launches.spec(Tools.find("pwd"), "-P").workingDirectory(directory).build());

      assertThat(result.stdout().text()).isEqualTo(directory + "\n");
    }
  }

  @ParameterizedTest(name = "exit {0}")
  @ValueSource(ints = {0, 1, 42})
  default void reportsTheExitStatusOfACommandThatExits(int status) {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path exit = workspace.script("exit.sh", "exit \"$1\"");

      LaunchResult result = launches.run(launches.spec(exit, Integer.toString(status)).build());

      assertThat(result.exitCode()).hasValue(status);
      assertThat(result.timedOut()).isFalse();
      assertThat(result.outputLimitHit()).isFalse();
      assertThat(result.termination())
          .as("termination of a command that exited by itself")
          .isEqualTo("none");
      assertThat(result.finishedAt()).isAfterOrEqualTo(result.startedAt());
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"KILL, 9", "TERM, 15"})
  default void reportsDeathBySignalAs128PlusTheSignalNumber(String signal, int number) {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path suicide = workspace.script("signal.sh", "kill -s \"$1\" $$\nexec sleep 10");

      LaunchResult result = launches.run(launches.spec(suicide, signal).build());

      assertThat(result.exitCode()).hasValue(128 + number);
      assertThat(result.timedOut()).isFalse();
    }
  }

  @Test
  default void stdinIsClosedWhenTheSpecGivesNoInput() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);

      // cat ends at once on a closed stdin; on an open one it would wait for the timeout.
      LaunchResult result = launches.run(launches.spec(Tools.find("cat")).build());

      assertThat(result.timedOut()).as("cat waited for input").isFalse();
      assertThat(result.exitCode()).hasValue(0);
      assertThat(result.stdout().size()).isZero();
    }
  }

  @Test
  default void stdinCarriesTheSpecInputAndIsThenClosed() {
    byte[] input = new byte[256 * 1024];
    new Random(42).nextBytes(input);
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);

      LaunchResult result =
          launches.run(
              launches.spec(Tools.find("cat")).stdin(input).maxOutputBytes(input.length).build());

      assertThat(result.timedOut()).as("cat waited for more input").isFalse();
      assertThat(result.exitCode()).hasValue(0);
      assertThat(result.stdout().bytes()).isEqualTo(input);
      assertThat(result.stdout().truncated()).isFalse();
    }
  }

  @Test
  default void aCommandThatNeverReadsItsInputStillFinishes() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path exit = workspace.script("exit.sh", "exit 3");

      LaunchResult result = launches.run(launches.spec(exit).stdin(new byte[4 << 20]).build());

      assertThat(result.exitCode()).hasValue(3);
      assertThat(result.timedOut()).isFalse();
    }
  }

  @Test
  default void floodingStdoutKeepsExactlyTheLimitAndEndsTheCommand() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      // A background child too: the whole tree must end, not just the writer.
      Path flood = workspace.script("flood.sh", "sleep 30 &\nexec yes");

      LaunchResult result = launches.run(launches.spec(flood).maxOutputBytes(65_536).build());

      assertFlooded(result, result.stdout().bytes(), result.stdout().truncated(), 65_536);
      assertThat(result.stderr().truncated()).isFalse();
    }
  }

  @Test
  default void floodingStderrKeepsExactlyTheLimitAndEndsTheCommand() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path flood = workspace.script("flood.sh", "sleep 30 &\nexec yes >&2");

      LaunchResult result = launches.run(launches.spec(flood).maxOutputBytes(65_536).build());

      assertFlooded(result, result.stderr().bytes(), result.stderr().truncated(), 65_536);
      assertThat(result.stdout().truncated()).isFalse();
      assertThat(result.stdout().size()).isZero();
    }
  }

  private static void assertFlooded(
      LaunchResult result, byte[] kept, boolean truncated, int limit) {
    byte[] expected = new byte[limit];
    for (int i = 0; i < limit; i++) {
      expected[i] = (byte) (i % 2 == 0 ? 'y' : '\n');
    }
    assertThat(kept).as("the first bytes the command wrote, exactly the limit").isEqualTo(expected);
    assertThat(truncated).as("truncated").isTrue();
    assertThat(result.outputLimitHit()).as("outputLimitHit").isTrue();
    assertThat(result.timedOut())
        .as("the command ran until the timeout instead of being ended at the limit")
        .isFalse();
    assertThat(result.termination())
        .as("termination of a command ended for its output")
        .isNotEqualTo("none");
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {1, 4096, 100_000})
  default void outputOfExactlyTheLimitIsKeptWhole(int limit) {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);

      LaunchResult result =
          launches.run(
              launches
                  .spec(Tools.find("head"), "-c", Integer.toString(limit), "/dev/zero")
                  .maxOutputBytes(limit)
                  .build());

      assertThat(result.stdout().bytes()).isEqualTo(new byte[limit]);
      assertThat(result.stdout().truncated()).isFalse();
      assertThat(result.outputLimitHit()).isFalse();
      assertThat(result.exitCode()).hasValue(0);
    }
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {1, 4096, 100_000})
  default void outputOneByteOverTheLimitIsTruncatedToTheLimit(int limit) {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);

      LaunchResult result =
          launches.run(
              launches
                  .spec(Tools.find("head"), "-c", Integer.toString(limit + 1), "/dev/zero")
                  .maxOutputBytes(limit)
                  .build());

      assertThat(result.stdout().bytes()).isEqualTo(new byte[limit]);
      assertThat(result.stdout().truncated()).isTrue();
      assertThat(result.stdout().sha256())
          .as("digest of the kept bytes")
          .isEqualTo(Sha256.hex(new byte[limit]));
    }
  }

  @Test
  default void refusesASpecThatRequiresACapabilityItLacks() {
    Set<IsolationCapability> lacking = EnumSet.allOf(IsolationCapability.class);
    lacking.removeAll(backend().capabilities());
    assumeFalse(lacking.isEmpty(), "the backend advertises every capability");
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path witness = workspace.writable().resolve("ran");
      Path touch = workspace.script("touch.sh", "echo ran > \"$1\"");
      LaunchSpec spec =
          launches
              .spec(touch, witness.toString())
              .writableRoots(List.of(workspace.writable()))
              .requiredCapabilities(lacking)
              .build();

      assertThatThrownBy(() -> launches.run(spec))
          .isInstanceOf(BackendUnavailableException.class)
          .extracting(e -> ((BackendUnavailableException) e).code())
          .isEqualTo(BackendUnavailableException.ISOLATION_UNAVAILABLE);
      assertThat(witness).as("the command ran although it was refused").doesNotExist();
    }
  }

  @Test
  default void aMissingExecutableFailsTheLaunch() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path missing = workspace.bin().resolve("missing");
      PinnedExecutable unhashed =
          new PinnedExecutable(
              missing, "0".repeat(64), missing.toString(), PinnedExecutable.Pinning.PROC_FD);
      LaunchSpec spec = launches.spec(unhashed).build();

      assertThatThrownBy(() -> launches.run(spec)).isInstanceOf(LaunchFailedException.class);
    }
  }

  @Test
  default void aMissingWorkingDirectoryFailsTheLaunch() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path missing = workspace.repository().resolve("missing");

      LaunchSpec spec = launches.spec(Tools.find("true")).workingDirectory(missing).build();

      assertThatThrownBy(() -> launches.run(spec)).isInstanceOf(LaunchFailedException.class);
      assertThat(Files.exists(missing)).as("the backend created the working directory").isFalse();
    }
  }
}
