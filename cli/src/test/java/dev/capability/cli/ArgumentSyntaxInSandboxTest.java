package dev.capability.cli;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.process.ProcessBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.DoubleDashMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.FlagRule;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.ValueRule;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.kernel.core.LoadedPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Attacks that hide in how a tool reads its arguments are denied before launch under the shipped
 * policies, with the real process backend and real bwrap; the spellings the tools accept run for
 * real; and, inside bwrap, the getopt reading the rules had before let the same argv run what the
 * tool read as an action.
 */
class ArgumentSyntaxInSandboxTest {
  private static final BackendGate PROCESS = BackendGate.of(new ProcessBackendProvider(), BackendConfig.defaults());
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final Path POLICIES = Path.of("..", "examples", "policies");
  private static final Map<String, String> HOST = Map.of("PATH", "/usr/bin:/bin", "LANG", "C.UTF-8");

  @TempDir Path tmp;
  private Path repository;

  @AfterAll
  static void close() {
    PROCESS.close();
    BWRAP.close();
  }

  @BeforeEach
  void repository() throws IOException {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    repository = Files.createDirectory(tmp.resolve("repository")).toRealPath();
    Files.createDirectories(repository.resolve("src"));
    Files.writeString(repository.resolve("src/Main.java"), "class Main {}\n");
    Files.writeString(repository.resolve("notes.txt"), "hello\n");
    Files.writeString(repository.resolve("evil.py"), "print('PWNED')\n");
    git(repository, "init", "-q", "-b", "main");
    git(repository, "add", ".");
    for (String message : List.of("first", "second", "third")) {
      git(repository, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", message);
    }
  }

  /**
   * The shipped policy, the argv ({@code {tmp}} stands for the test's directory, outside the
   * repository), and the code it is denied with.
   */
  static Stream<Arguments> attacks() {
    return Stream.of(
        arguments("readonly-dev.json", List.of("find", "--", ".", "-exec", "sh", "-c", "touch pwned", ";"), "FLAG_NOT_ALLOWED"),
        arguments("toolchains.json", List.of("python3", "evil.py", "-m", "pytest"), "OPERAND_NOT_ALLOWED"),
        arguments("toolchains.json", List.of("tar", "tIf", "sh -c 'touch pwned'", "a.tar"), "FLAG_NOT_ALLOWED"),
        arguments("toolchains.json", List.of("make", "test", "SHELL=/bin/sh"), "KEY_VALUE_NOT_ALLOWED"),
        arguments("toolchains.json", List.of("make", "CC=touch pwned"), "KEY_VALUE_NOT_ALLOWED"),
        arguments("toolchains.json", List.of("dd", "if=notes.txt", "of={tmp}/pwned"), "OPERAND_INVALID"));
  }

  @ParameterizedTest
  @MethodSource("attacks")
  void theProcessBackendNeverLaunchesThem(String policy, List<String> argv, String code) throws IOException {
    assertDeniedBeforeLaunch(PROCESS.backend(), policy, argv, code);
  }

  @ParameterizedTest
  @MethodSource("attacks")
  void bwrapNeverLaunchesThem(String policy, List<String> argv, String code) throws IOException {
    assertDeniedBeforeLaunch(BWRAP.backend(), policy, argv, code);
  }

  static Stream<Arguments> ordinarySpellings() {
    return Stream.of(
        arguments(List.of("git", "log", "--oneline", "-n2"), 2, "third"),
        arguments(List.of("git", "log", "-n", "1", "--oneline"), 1, "third"),
        arguments(List.of("ls", "-la"), null, "notes.txt"),
        arguments(List.of("ls", "-1a", "src"), null, "Main.java"),
        arguments(List.of("find", ".", "-name", "notes.txt", "-print"), 1, "./notes.txt"),
        arguments(List.of("find", "--", "src", "-name", "*.java"), 1, "src/Main.java"),
        arguments(List.of("head", "-qn1", "notes.txt"), 1, "hello"),
        arguments(List.of("which", "-a", "git"), null, "git"));
  }

  @ParameterizedTest
  @MethodSource("ordinarySpellings")
  void theSpellingsToolsAcceptRunUnderTheProcessBackend(List<String> argv, Integer lines, String output) throws IOException {
    // The process backend has no network namespace; the rules are readonly-dev's.
    LoadedPolicy withNetwork = ExecutionPolicies.of(shipped("readonly-dev.json").policy().toBuilder().network(NetworkMode.HOST).build());
    assertRuns(PROCESS.backend(), withNetwork, argv, lines, output);
  }

  @ParameterizedTest
  @MethodSource("ordinarySpellings")
  void theSpellingsToolsAcceptRunUnderBwrap(List<String> argv, Integer lines, String output) throws IOException {
    assertRuns(BWRAP.backend(), shipped("readonly-dev.json"), argv, lines, output);
  }

  @Test
  void readAsGetoptFindRunsTheActionAfterDoubleDash() throws IOException {
    ExecutionBackend bwrap = BWRAP.backend();
    List<String> argv = List.of("find", "--", ".", "-maxdepth", "0", "-exec", "echo", "PWNED", ";");
    ExecutionPolicy getopt = ExecutionPolicy.builder().inheritEnvironment("PATH").executable(ExecutableRule.named("find")
        .arguments(ArgumentRules.builder().flag("-name", FlagRule.withValue(ValueRule.string()))
            .operands(OperandRule.any(ValueRule.path())).doubleDash(DoubleDashMode.OPTIONAL).build())
        .build()).build();

    ExecutionResult asGetopt = kernel(ExecutionPolicies.of(getopt), bwrap).execute(request(argv));
    ExecutionResult asFind = kernel(shipped("readonly-dev.json"), bwrap).execute(request(argv));

    assertThat(asGetopt.status()).as(asGetopt.decision().message()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(asGetopt.stdout().text()).as("find ran -exec").isEqualTo("PWNED\n");
    assertThat(asFind.status()).isEqualTo(ExecutionStatus.DENIED);
    assertThat(asFind.decision().rule()).isEqualTo("executables.find.flags");
    assertThat(asFind.decision().argIndex()).hasValue(5);
  }

  @Test
  void readAsGetoptPythonRunsTheScriptBeforeTheModuleFlag() throws IOException {
    ExecutionBackend bwrap = BWRAP.backend();
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "no /usr/bin/python3 on this machine");
    List<String> argv = List.of("python3", "evil.py", "-m", "pytest");
    ExecutionPolicy getopt = ExecutionPolicy.builder().inheritEnvironment("PATH").executable(ExecutableRule.named("python3")
        .arguments(ArgumentRules.builder().flag("-m", FlagRule.withValue(ValueRule.literal("pytest")))
            .operands(OperandRule.any(ValueRule.path())).build())
        .build()).build();

    ExecutionResult asGetopt = kernel(ExecutionPolicies.of(getopt), bwrap).execute(request(argv));
    ExecutionResult asPython = kernel(shipped("toolchains.json"), bwrap).execute(request(argv));

    assertThat(asGetopt.status()).as(asGetopt.decision().message()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(asGetopt.stdout().text()).as("python3 ran the script").isEqualTo("PWNED\n");
    assertThat(asPython.status()).isEqualTo(ExecutionStatus.DENIED);
    assertThat(asPython.decision().argIndex()).hasValue(1);
  }

  private void assertDeniedBeforeLaunch(ExecutionBackend backend, String policy, List<String> argv, String code) throws IOException {
    List<String> command = argv.stream().map(arg -> arg.replace("{tmp}", tmp.toString())).toList();
    ExecutionResult result = kernel(shipped(policy), backend).execute(request(command));

    assertThat(result.status()).as(result.decision().message()).isEqualTo(ExecutionStatus.DENIED);
    assertThat(result.decision().code()).as(result.decision().message()).isEqualTo(code);
    assertThat(result.decision().layer()).isEqualTo("operator");
    assertThat(result.exitCode()).isEmpty();
    assertThat(result.attestation().executable()).as("nothing was resolved, so nothing was launched").isNull();
    assertThat(repository.resolve("pwned")).doesNotExist();
    assertThat(tmp.resolve("pwned")).doesNotExist();
  }

  private void assertRuns(ExecutionBackend backend, LoadedPolicy policy, List<String> argv, Integer lines, String output) {
    // Named, as an operator names the process backend: it is never chosen automatically (not a sandbox).
    ExecutionResult result = kernel(policy, backend).execute(request(argv).toBuilder().backend(backend.id()).build());

    assertThat(result.decision().allowed()).as(result.decision().message()).isTrue();
    assertThat(result.status()).as(result.stderr().text()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(result.exitCode()).as(result.stderr().text()).hasValue(0);
    assertThat(result.stdout().text()).contains(output);
    if (lines != null) {
      assertThat(result.stdout().text().lines()).as(result.stdout().text()).hasSize(lines);
    }
    assertThat(result.attestation().backend().id()).isEqualTo(backend.id());
  }

  private static LoadedPolicy shipped(String name) throws IOException {
    return ExecutionPolicies.parse(Files.readString(POLICIES.resolve(name)), name);
  }

  /** A kernel on the gate's backend; never closed, since closing a kernel closes its backends, which the gates close. */
  private static CommandKernel kernel(LoadedPolicy policy, ExecutionBackend backend) {
    return CommandKernel.builder(policy).discoverBackends(false).backend(backend).hostEnvironment(HOST).build();
  }

  private ExecutionRequest request(List<String> argv) {
    return ExecutionRequest.argv(argv).repository(repository).workingDirectory(repository).build();
  }
}
