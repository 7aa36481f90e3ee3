package dev.capability.integrations.agentsandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.process.ProcessBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.ShellSyntaxException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springaicommunity.sandbox.ExecResult;
import org.springaicommunity.sandbox.ExecSpec;
import org.springaicommunity.sandbox.FileEntry;
import org.springaicommunity.sandbox.FileType;
import org.springaicommunity.sandbox.TimeoutException;

/**
 * What {@link KernelSandbox#exec} makes of the kernel: shell commands split without a shell or
 * refused with the parser's reason, denials and bounds as exceptions with the kernel's codes, the
 * request environment under the policy, and a link a sandboxed command plants never followed.
 */
class KernelSandboxTest {
  private static final BackendGate PROCESS = BackendGate.of(new ProcessBackendProvider(), BackendConfig.defaults());
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());

  @TempDir Path temp;

  @AfterAll
  static void closeBackends() {
    PROCESS.close();
    BWRAP.close();
  }

  private KernelSandbox processSandbox() {
    return TckSandboxes.tckSandbox(PROCESS.backend(), NetworkMode.HOST, temp);
  }

  @Test
  void aShellCommandThatOnlySplitsWordsRunsAsItsArgv() {
    ExecResult result = processSandbox().exec(ExecSpec.builder().shellCommand("echo 'two  words' \"and\" three").build());

    assertThat(result.exitCode()).isZero();
    assertThat(result.stdout()).isEqualTo("two  words and three\n");
  }

  @ParameterizedTest
  @CsvSource(delimiterString = " => ", quoteCharacter = '"', value = {
      "echo pwned > out.txt => redirection",
      "echo 'error-message' >&2 => redirection",
      "echo 'to-stdout' && echo 'to-stderr' >&2 => and-list",
      "echo a | echo b => pipe",
      "echo a; echo b => command-separator",
      "echo * => glob",
      "echo $HOME => parameter-expansion",
      "echo `id` => command-substitution"})
  void aShellCommandThatNeedsAShellIsRefusedWithTheParsersReasonAndNothingRuns(String command, String construct) {
    KernelSandbox sandbox = processSandbox();

    assertThatThrownBy(() -> sandbox.exec(ExecSpec.builder().shellCommand(command).build()))
        .isInstanceOfSatisfying(KernelSandboxException.class, e -> {
          assertThat(e.code()).isEqualTo(KernelSandboxException.SHELL_SYNTAX);
          assertThat(e.getCause()).isInstanceOfSatisfying(ShellSyntaxException.class, parser -> {
            assertThat(parser.construct()).isEqualTo(construct);
            assertThat(e.getMessage()).contains(parser.getMessage());
          });
          assertThat(e.result()).isEmpty();
        });
    assertThat(sandbox.workDir().resolve("out.txt")).doesNotExist();
  }

  @Test
  void aCommandThePolicyDoesNotAllowIsRefusedWithTheKernelsLayerRuleAndReason() {
    assertThatThrownBy(() -> processSandbox().exec(ExecSpec.of("cat", "/etc/passwd")))
        .isInstanceOfSatisfying(KernelSandboxException.class, e -> {
          assertThat(e.code()).isEqualTo("EXECUTABLE_NOT_ALLOWED");
          assertThat(e.decision()).hasValueSatisfying(decision -> assertThat(decision.layer()).isEqualTo("operator"));
          assertThat(e.result()).hasValueSatisfying(result -> assertThat(result.status()).isEqualTo(ExecutionStatus.DENIED));
          assertThat(e.getMessage()).startsWith("cat /etc/passwd: refused by the operator layer, rule executables");
        });
  }

  @Test
  void aVariableThePolicyDoesNotListRefusesTheWholeExecWithoutShowingItsValue() {
    ExecSpec spec = ExecSpec.builder().command("printenv", "TEST_VAR").env("TEST_VAR", "fine").env("API_TOKEN", "s3cr3t-value").build();

    assertThatThrownBy(() -> processSandbox().exec(spec))
        .isInstanceOfSatisfying(KernelSandboxException.class, e -> {
          assertThat(e.code()).isEqualTo("ENVIRONMENT_NOT_ALLOWED");
          assertThat(e.decision()).hasValueSatisfying(decision -> assertThat(decision.rule()).isEqualTo("environment.request"));
        })
        .hasMessageContaining("API_TOKEN")
        .hasMessageNotContaining("s3cr3t-value");
  }

  @Test
  void aVariableTheKernelNeverTakesFromARequestIsRefusedWhateverThePolicySays() {
    ExecSpec spec = ExecSpec.builder().command("printenv", "TEST_VAR").env("PATH", "/tmp/evil").build();

    assertThatThrownBy(() -> processSandbox().exec(spec))
        .isInstanceOfSatisfying(KernelSandboxException.class, e -> {
          assertThat(e.code()).isEqualTo("ENVIRONMENT_DENIED");
          assertThat(e.decision()).hasValueSatisfying(decision -> assertThat(decision.layer()).isEqualTo("builtin"));
        });
  }

  @Test
  void aKernelThatCannotIsolateTheCommandIsAFailureWithTheKernelsCodeAndNothingRuns() {
    // Only the process backend, which is no sandbox, under a policy that forbids the network.
    KernelSandbox sandbox = KernelSandbox.builder(
        TckSandboxes.kernel(TckSandboxes.tckPolicy(NetworkMode.NONE), PROCESS.backend()), TckSandboxes.workDirectory(temp)).build();

    assertThatThrownBy(() -> sandbox.exec(ExecSpec.of("echo", "x")))
        .isInstanceOfSatisfying(KernelSandboxException.class, e -> {
          assertThat(e.code()).isEqualTo("ISOLATION_UNAVAILABLE");
          assertThat(e.getCause()).isInstanceOf(BackendUnavailableException.class);
          assertThat(e.result()).isEmpty();
        });
  }

  @Test
  void aNonZeroExitIsAResultNotAnException() {
    ExecResult result = processSandbox().exec(ExecSpec.of("ls", "/nonexistent-directory"));

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr()).contains("No such file or directory");
  }

  @Test
  void aTimeoutCarriesTheSpisTimeoutExceptionAndTheKernelsResult() {
    ExecSpec spec = ExecSpec.builder().command("sleep", "10").timeout(Duration.ofMillis(500)).build();

    assertThatThrownBy(() -> processSandbox().exec(spec))
        .isInstanceOfSatisfying(KernelSandboxException.class, e -> {
          assertThat(e.code()).isEqualTo(KernelSandboxException.TIMED_OUT);
          assertThat(e.getCause()).isInstanceOfSatisfying(TimeoutException.class,
              timeout -> assertThat(timeout.getTimeout()).isEqualTo(Duration.ofMillis(500)));
          assertThat(e.result()).hasValueSatisfying(result -> assertThat(result.status()).isEqualTo(ExecutionStatus.TIMED_OUT));
        });
  }

  @Test
  void aClosedSandboxRunsNothingAndTouchesNoFile() {
    KernelSandbox sandbox = processSandbox();
    sandbox.close();

    assertThatThrownBy(() -> sandbox.exec(ExecSpec.of("echo", "x"))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> sandbox.files().create("x.txt", "x")).isInstanceOf(IllegalStateException.class);
    assertThat(sandbox.workDir().resolve("x.txt")).doesNotExist();
    assertThat(sandbox.shouldCleanupOnClose()).isFalse();
    assertThat(sandbox.workDir()).isDirectory();
  }

  @Test
  void theWorkDirectoryMustBeAnExistingDirectoryNotALink() throws IOException {
    KernelSandbox sandbox = processSandbox();
    Path file = Files.writeString(temp.resolve("file"), "x");
    Path link = Files.createSymbolicLink(temp.resolve("link"), sandbox.workDir());
    ExecutionBackend process = PROCESS.backend();

    assertThatThrownBy(() -> KernelSandbox.builder(TckSandboxes.kernel(TckSandboxes.tckPolicy(NetworkMode.HOST), process), file).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(file.toString());
    assertThatThrownBy(() -> KernelSandbox.builder(TckSandboxes.kernel(TckSandboxes.tckPolicy(NetworkMode.HOST), process), link).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("symbolic link");
  }

  @Test
  void underBwrapTheHostsHomeIsHidden() {
    KernelSandbox sandbox = TckSandboxes.tckSandbox(BWRAP.backend(), NetworkMode.NONE, temp);

    ExecResult result = sandbox.exec(ExecSpec.of("ls", "/home"));

    assertThat(result.exitCode()).isNotZero();
    assertThat(result.stderr()).contains("No such file or directory");
  }

  @Test
  void aLinkToEtcThatACommandPlantsUnderBwrapIsNeverFollowedByTheFileOperations() throws IOException {
    ExecutionBackend bwrap = BWRAP.backend();
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .projectWrites(ProjectWriteMode.SCOPED)
        .writeScopes(List.of("links/**"))
        .executable(ExecutableRule.named("ln").exact("-s", "/etc", "links/etc").build())
        .build();
    Path work = TckSandboxes.workDirectory(temp);
    Files.createDirectory(work.resolve("links"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
    Files.setPosixFilePermissions(work.resolve("links"), PosixFilePermissions.fromString("rwxrwxrwx"));
    KernelSandbox sandbox = KernelSandbox.builder(TckSandboxes.kernel(policy, bwrap), work).backend("bwrap").build();

    ExecResult planted = sandbox.exec(ExecSpec.of("ln", "-s", "/etc", "links/etc"));
    assertThat(planted.exitCode()).as(planted.stderr()).isZero();
    assertThat(work.resolve("links/etc")).isSymbolicLink();

    assertThatThrownBy(() -> sandbox.files().read("links/etc/passwd"))
        .isInstanceOfSatisfying(KernelSandboxException.class, e -> assertThat(e.code()).isEqualTo(KernelSandboxException.PATH_SYMBOLIC_LINK));
    assertThatThrownBy(() -> sandbox.files().create("links/etc/capability-agent-sandbox-planted", "x"))
        .isInstanceOfSatisfying(KernelSandboxException.class, e -> assertThat(e.code()).isEqualTo(KernelSandboxException.PATH_SYMBOLIC_LINK));
    assertThat(sandbox.files().list("links", 5)).singleElement().satisfies(entry -> {
      assertThat(entry.path()).isEqualTo("links/etc");
      assertThat(entry.type()).isEqualTo(FileType.FILE);
    });
    assertThat(sandbox.files().list(".", 5)).extracting(FileEntry::path).noneMatch(path -> path.startsWith("links/etc/"));
    assertThat(Path.of("/etc/capability-agent-sandbox-planted")).doesNotExist();
  }
}
