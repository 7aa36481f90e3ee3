package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.PinnedExecutable;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.internal.audit.AuditException;
import dev.capability.kernel.core.internal.pipeline.CommandPipeline;
import dev.capability.testing.Ownership;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole pipeline with the real process backend found on the class path. */
class CommandKernelTest {
  @TempDir Path tmp;

  /** A kernel whose policy lets the process backend, the only one on this class path and no sandbox, run unnamed. */
  private CommandKernel kernel(UnaryOperator<ExecutionPolicy.Builder> policy, Map<String, String> hostEnv) {
    ExecutionPolicy p = policy.apply(ExecutionPolicy.builder().network(NetworkMode.HOST).allowUnisolatedFallback(true)).build();
    return CommandKernel.builder(ExecutionPolicies.of(p)).hostEnvironment(hostEnv).workingDirectory(tmp).build();
  }

  private CommandKernel kernelAllowing(Path executable, String... exactArguments) {
    return kernel(p -> p.executable(ExecutableRule.atPath("tool", executable).exact(exactArguments).build()), Map.of());
  }

  @Test
  void runsAnAllowedCommandAndAttestsTheBytesThatRan() throws Exception {
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "printf '%s|' \"$@\"; echo; exit 3");
    try (CommandKernel kernel = kernelAllowing(tool, "a b", "")) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv(tool.toString(), "a b", "").build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.COMPLETED);
      assertThat(result.exitCode()).hasValue(3);
      assertThat(result.stdout().text()).isEqualTo("a b||\n");
      Attestation a = result.attestation();
      assertThat(a.executable().path()).isEqualTo(tool.toString());
      assertThat(a.executable().sha256()).isEqualTo(Sha256.hex(Files.readAllBytes(tool)));
      assertThat(a.executable().pinning()).isEqualTo(PinnedExecutable.Pinning.PROC_FD);
      assertThat(a.backend().id()).isEqualTo("process");
      assertThat(a.exitCode()).isEqualTo(3);
      assertThat(a.stdout().sha256()).isEqualTo(Sha256.hex("a b||\n".getBytes()));
      assertThat(a.policyHash()).isEqualTo(kernel.policy().hash());
      assertThat(a.policySource()).isEqualTo("code");
      assertThat(a.decision().allowed()).isTrue();
    }
  }

  @Test
  void aRepositoryOrWorkingDirectoryThatIsNotADirectoryIsRefusedByItsCodeAndNothingRuns() throws Exception {
    Path marker = tmp.resolve("ran");
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "touch " + marker);
    Path file = Files.writeString(tmp.resolve("file"), "not a directory\n");
    try (CommandKernel kernel = kernelAllowing(tool)) {
      assertThatThrownBy(() -> kernel.execute(ExecutionRequest.argv(tool.toString()).repository(file).build()))
          .isInstanceOf(CapabilityException.class)
          .hasMessageContaining("is not a directory")
          .extracting(e -> ((CapabilityException) e).code()).isEqualTo(AuditException.REPOSITORY_INVALID);
      assertThatThrownBy(() -> kernel.execute(ExecutionRequest.argv(tool.toString()).workingDirectory(tmp.resolve("missing")).build()))
          .isInstanceOf(CapabilityException.class)
          .hasMessageContaining("does not exist")
          .extracting(e -> ((CapabilityException) e).code()).isEqualTo(CommandPipeline.WORKING_DIRECTORY_INVALID);
    }
    assertThat(marker).doesNotExist();
  }

  @Test
  void aDeniedCommandIsAttestedAndNeverLaunched() throws Exception {
    Path marker = tmp.resolve("ran");
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "touch " + marker);
    try (CommandKernel kernel = kernelAllowing(tool, "ok")) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv(tool.toString(), "not-ok").build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.DENIED);
      assertThat(result.decision().layer()).isEqualTo("operator");
      assertThat(result.exitCode()).isEmpty();
      assertThat(result.attestation().status()).isEqualTo(ExecutionStatus.DENIED);
      assertThat(result.attestation().executable()).isNull();
      assertThat(result.attestation().decision().code()).isEqualTo(result.decision().code());
      assertThat(marker).doesNotExist();
    }
  }

  @Test
  void aCommandStringWithAShellOperatorIsDeniedByTheParser() throws Exception {
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "exit 0");
    try (CommandKernel kernel = kernelAllowing(tool, "x")) {
      ExecutionResult result = kernel.execute(ExecutionRequest.command(tool + " x; " + tool + " x").build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.DENIED);
      assertThat(result.decision().code()).isEqualTo("SHELL_SYNTAX");
      assertThat(result.decision().layer()).isEqualTo("parser");
      assertThat(result.argv()).isEmpty();
    }
  }

  @Test
  void aCommandStringIsSplitWithoutAShellAndRun() throws Exception {
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "printf '%s|' \"$@\"");
    try (CommandKernel kernel = kernelAllowing(tool, "two words", "$HOME")) {
      ExecutionResult result = kernel.execute(ExecutionRequest.command(tool + " 'two words' '$HOME'").build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.COMPLETED);
      assertThat(result.stdout().text()).isEqualTo("two words|$HOME|");
    }
  }

  @Test
  void theCommandGetsOnlyTheEnvironmentThePolicyAllowsAndTheAttestationHoldsNamesOnly() throws Exception {
    Path env = Path.of("/usr/bin/env").toRealPath();
    Map<String, String> host = Map.of("PATH", "/usr/bin:/bin", "SECRET_TOKEN", "hunter2", "LANG", "C.UTF-8");
    try (CommandKernel kernel = kernel(p -> p
        .inheritEnvironment("PATH", "HOME")
        .setEnvironment("FIXED", "value-from-operator")
        .executable(ExecutableRule.atPath("env", env).exact().build()), host)) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv(env.toString()).build());

      assertThat(result.stdout().text().lines().sorted().toList())
          .containsExactly("FIXED=value-from-operator", "PATH=/usr/bin:/bin");
      Attestation a = result.attestation();
      assertThat(a.environment().inherited()).containsExactly("PATH");
      assertThat(a.environment().set()).containsExactly("FIXED");
      assertThat(AttestationJson.toMap(a).toString()).doesNotContain("hunter2").doesNotContain("value-from-operator");
    }
  }

  @Test
  void aRequestVariableThePolicyListsReachesTheCommandAndOnlyItsNameIsAttested() throws Exception {
    Path env = Path.of("/usr/bin/env").toRealPath();
    try (CommandKernel kernel = kernel(p -> p
        .inheritEnvironment("PATH")
        .requestEnvironment("TCK_GREETING", "OTHER")
        .executable(ExecutableRule.atPath("env", env).exact().build()), Map.of("PATH", "/usr/bin:/bin"))) {
      ExecutionResult result = kernel.execute(
          ExecutionRequest.argv(env.toString()).environment("TCK_GREETING", "hello from the request").build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.COMPLETED);
      assertThat(result.stdout().text().lines().sorted().toList())
          .containsExactly("PATH=/usr/bin:/bin", "TCK_GREETING=hello from the request");
      Attestation a = result.attestation();
      assertThat(a.environment().inherited()).containsExactly("PATH");
      assertThat(a.environment().set()).isEmpty();
      assertThat(a.environment().requested()).containsExactly("TCK_GREETING");
      Map<String, Object> json = AttestationJson.toMap(a);
      assertThat(json.get("environment"))
          .isEqualTo(Map.of("inherited", java.util.List.of("PATH"), "set", java.util.List.of(),
              "requested", java.util.List.of("TCK_GREETING")));
      assertThat(json.toString()).doesNotContain("hello from the request");
    }
  }

  @Test
  void aRequestVariableMakesTheCommandSpecHashDifferButNotItsValue() throws Exception {
    Path env = Path.of("/usr/bin/env").toRealPath();
    try (CommandKernel kernel = kernel(p -> p
        .requestEnvironment("TCK_GREETING")
        .executable(ExecutableRule.atPath("env", env).exact().build()), Map.of())) {
      String without = kernel.execute(ExecutionRequest.argv(env.toString()).build()).attestation().commandSpecHash();
      String one = kernel.execute(ExecutionRequest.argv(env.toString()).environment("TCK_GREETING", "a").build())
          .attestation().commandSpecHash();
      String other = kernel.execute(ExecutionRequest.argv(env.toString()).environment("TCK_GREETING", "b").build())
          .attestation().commandSpecHash();

      assertThat(one).isNotEqualTo(without).isEqualTo(other);
    }
  }

  @Test
  void aRequestVariableThePolicyDoesNotListIsDeniedAndNeverLaunched() throws Exception {
    Path env = Path.of("/usr/bin/env").toRealPath();
    try (CommandKernel kernel = kernel(p -> p
        .requestEnvironment("TCK_GREETING")
        .executable(ExecutableRule.atPath("env", env).exact().build()), Map.of())) {
      ExecutionRequest request = ExecutionRequest.argv(env.toString()).environment("UNLISTED", "secret-value").build();

      ExecutionResult result = kernel.execute(request);

      assertThat(result.status()).isEqualTo(ExecutionStatus.DENIED);
      assertThat(result.decision().code()).isEqualTo("ENVIRONMENT_NOT_ALLOWED");
      assertThat(result.decision().layer()).isEqualTo("operator");
      assertThat(result.decision().rule()).isEqualTo("environment.request");
      assertThat(result.decision().message()).contains("UNLISTED").doesNotContain("secret-value");
      assertThat(result.attestation().stdout().bytes()).isZero();
      assertThat(kernel.check(request).decision().code()).isEqualTo("ENVIRONMENT_NOT_ALLOWED");
    }
  }

  @Test
  void aRequestCanNeverGiveAnInjectorEvenToAPolicyThatSkippedValidation() throws Exception {
    Path env = Path.of("/usr/bin/env").toRealPath();
    try (CommandKernel kernel = kernel(p -> p
        .requestEnvironment("TCK_GREETING")
        .executable(ExecutableRule.atPath("env", env).exact().build()), Map.of())) {
      for (String name : java.util.List.of("LD_PRELOAD", "GIT_CONFIG_GLOBAL", "PATH", "HOME", "BASH_ENV")) {
        ExecutionResult result = kernel.execute(ExecutionRequest.argv(env.toString()).environment(name, "/tmp/x").build());

        assertThat(result.status()).as(name).isEqualTo(ExecutionStatus.DENIED);
        assertThat(result.decision().code()).as(name).isEqualTo("ENVIRONMENT_DENIED");
        assertThat(result.decision().layer()).as(name).isEqualTo("builtin");
        assertThat(result.decision().message()).as(name).contains(name);
      }
      ExecutionResult nul = kernel.execute(ExecutionRequest.argv(env.toString()).environment("TCK_GREETING", "a\0b").build());
      assertThat(nul.decision().code()).isEqualTo("ENVIRONMENT_INVALID");
      ExecutionResult badName = kernel.execute(ExecutionRequest.argv(env.toString()).environment("A=B", "x").build());
      assertThat(badName.decision().code()).isEqualTo("ENVIRONMENT_INVALID");
    }
  }

  @Test
  void aTimeoutEndsTheCommandAndIsAnOutcome() throws Exception {
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "sleep 30");
    try (CommandKernel kernel = kernelAllowing(tool)) {
      ExecutionResult result = kernel.execute(
          ExecutionRequest.argv(tool.toString()).timeout(Duration.ofMillis(300)).build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.TIMED_OUT);
      assertThat(result.attestation().timedOut()).isTrue();
    }
  }

  @Test
  void thePolicysMaxFileBytesBoundsTheFilesACommandWrites() throws Exception {
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "ulimit -f");
    try (CommandKernel kernel = kernel(
        p -> p.maxFileBytes(1L << 20).executable(ExecutableRule.atPath("tool", tool).exact().build()), Map.of())) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv(tool.toString()).build());

      assertThat(result.stdout().text()).as("in 512-byte blocks").isEqualTo("2048\n");
    }
  }

  @Test
  void outputBeyondTheBoundEndsTheCommand() throws Exception {
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "exec /usr/bin/yes flood");
    try (CommandKernel kernel = kernelAllowing(tool)) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv(tool.toString()).maxOutputBytes(4096).build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.OUTPUT_LIMIT);
      assertThat(result.stdout().size()).isEqualTo(4096);
      assertThat(result.stdout().truncated()).isTrue();
      assertThat(result.attestation().outputLimitHit()).isTrue();
      assertThat(result.attestation().stdout().truncated()).isTrue();
    }
  }

  @Test
  void aRequiredCapabilityTheBackendLacksFailsBeforeLaunch() throws Exception {
    Path marker = tmp.resolve("ran");
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "touch " + marker);
    try (CommandKernel kernel = kernel(p -> p
        .require(IsolationCapability.PID_NAMESPACE)
        .executable(ExecutableRule.atPath("tool", tool).exact().build()), Map.of())) {
      assertThatThrownBy(() -> kernel.execute(ExecutionRequest.argv(tool.toString()).backend("process").build()))
          .isInstanceOf(BackendUnavailableException.class)
          .hasMessageContaining("PID_NAMESPACE")
          .extracting(e -> ((BackendUnavailableException) e).code())
          .isEqualTo("ISOLATION_UNAVAILABLE");
      assertThat(marker).doesNotExist();
    }
  }

  @Test
  void aPolicyWithoutNetworkNeverRunsOnABackendThatCannotRemoveIt() throws Exception {
    Path marker = tmp.resolve("ran");
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "touch " + marker);
    try (CommandKernel kernel = kernel(p -> p
        .network(NetworkMode.NONE)
        .executable(ExecutableRule.atPath("tool", tool).exact().build()), Map.of())) {
      assertThatThrownBy(() -> kernel.execute(ExecutionRequest.argv(tool.toString()).backend("process").build()))
          .isInstanceOf(BackendUnavailableException.class)
          .hasMessageContaining("NETWORK_NAMESPACE");
      assertThat(kernel.check(ExecutionRequest.argv(tool.toString()).backend("process").build()).decision().code())
          .isEqualTo("ISOLATION_UNAVAILABLE");
      assertThat(marker).doesNotExist();
    }
  }

  @Test
  void aPinnedHashThatDoesNotMatchIsRefused() throws Exception {
    Path marker = tmp.resolve("ran");
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "touch " + marker);
    String wrong = "0".repeat(64);
    try (CommandKernel kernel = kernel(p -> p
        .executable(ExecutableRule.atPath("tool", tool).sha256(wrong).exact().build()), Map.of())) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv(tool.toString()).build());

      assertThat(result.decision().code()).isEqualTo("EXECUTABLE_HASH_MISMATCH");
      assertThat(result.decision().rule()).isEqualTo("executables.tool.sha256");
      assertThat(marker).doesNotExist();
    }
  }

  @Test
  void aNonCanonicalPathToAnAllowedExecutableIsRefused() throws Exception {
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "exit 0");
    Path link = tmp.resolve("link");
    Files.createSymbolicLink(link, tool);
    try (CommandKernel kernel = kernel(p -> p
        .executable(ExecutableRule.atPath("link", link).exact().build()), Map.of())) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv(link.toString()).build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.DENIED);
      assertThat(result.decision().code()).isEqualTo("EXECUTABLE_NOT_CANONICAL");
    }
  }

  @Test
  void anExecutableInsideTheRepositoryIsRefusedUnlessThePolicyAllowsIt() throws Exception {
    Path repo = Files.createDirectories(tmp.resolve("repo")).toRealPath();
    Path tool = TestFiles.script(repo.resolve("scripts"), "build", "echo built");
    ExecutionRequest request = ExecutionRequest.argv(tool.toString()).repository(repo).build();
    try (CommandKernel kernel = kernelAllowing(tool)) {
      assertThat(kernel.execute(request).decision().code()).isEqualTo("REPOSITORY_EXECUTABLE");
    }
    try (CommandKernel kernel = kernel(p -> p.allowRepositoryExecutables(true)
        .executable(ExecutableRule.atPath("tool", tool).exact().build()), Map.of())) {
      assertThat(kernel.execute(request).stdout().text()).isEqualTo("built\n");
    }
  }

  @Test
  void aPathEntryInsideTheRepositoryIsShadowingAndRefused() throws Exception {
    Path repo = Files.createDirectories(tmp.resolve("repo")).toRealPath();
    TestFiles.script(repo.resolve("bin"), "git", "echo planted");
    Map<String, String> host = Map.of("PATH", repo.resolve("bin") + ":/usr/bin:/bin");
    try (CommandKernel kernel = kernel(p -> p.inheritEnvironment("PATH")
        .executable(ExecutableRule.named("git").exact("--version").build()), host)) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv("git", "--version").repository(repo).build());

      assertThat(result.decision().code()).isEqualTo("PATH_SHADOWING");
      assertThat(result.stdout().text()).doesNotContain("planted");
    }
  }

  @Test
  void aHardLinkOnThePathToARepositoryScriptIsRefusedBeforeLaunch() throws Exception {
    Path repo = Files.createDirectories(tmp.resolve("repo")).toRealPath();
    Path marker = tmp.resolve("ran");
    Path planted = TestFiles.script(repo.resolve("scripts"), "build", "touch " + marker);
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Files.createLink(bin.resolve("build"), planted);
    Map<String, String> host = Map.of("PATH", bin + ":/usr/bin:/bin");
    try (CommandKernel kernel = kernel(p -> p.inheritEnvironment("PATH")
        .executable(ExecutableRule.named("build").exact().build()), host)) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv("build").repository(repo).build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.DENIED);
      assertThat(result.decision().code()).isEqualTo("REPOSITORY_EXECUTABLE_LINK");
      assertThat(result.decision().message()).contains("scripts/build");
      assertThat(marker).doesNotExist();
    }
    try (CommandKernel kernel = kernelAllowing(bin.resolve("build").toRealPath())) {
      ExecutionResult result = kernel.execute(
          ExecutionRequest.argv(bin.resolve("build").toRealPath().toString()).repository(repo).build());

      assertThat(result.decision().code()).as("named by its path").isEqualTo("REPOSITORY_EXECUTABLE_LINK");
      assertThat(marker).doesNotExist();
    }
  }

  @Test
  void anotherUsersExecutableInAWorldWritablePathDirectoryIsRefusedBeforeLaunch() throws Exception {
    assumeTrue(Ownership.currentUid() == 0, "only root can make a file another user owns; ExecutableTrustTest covers the rule"
        + " for any user, and this test runs as uid " + Ownership.currentUid());
    Path marker = tmp.resolve("ran");
    Path shared = Files.createDirectories(tmp.resolve("shared"));
    Files.setAttribute(shared, "unix:mode", 01777);
    Path tool = TestFiles.script(shared, "mytool", "touch " + marker);
    Files.setAttribute(tool, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);
    Map<String, String> host = Map.of("PATH", shared + ":/usr/bin:/bin");
    try (CommandKernel kernel = kernel(p -> p.inheritEnvironment("PATH")
        .executable(ExecutableRule.named("mytool").exact().build()), host)) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv("mytool").build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.DENIED);
      assertThat(result.decision().code()).isEqualTo("EXECUTABLE_WRITABLE_BY_OTHERS");
      assertThat(result.decision().message()).contains("uid 65534").contains(shared.toString());
      assertThat(marker).doesNotExist();
    }
  }

  @Test
  void aWorldWritableExecutableIsRefusedBeforeLaunch() throws Exception {
    Path marker = tmp.resolve("ran");
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "touch " + marker);
    Files.setPosixFilePermissions(tool, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
    try (CommandKernel kernel = kernelAllowing(tool)) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv(tool.toString()).build());

      assertThat(result.decision().code()).isEqualTo("EXECUTABLE_WRITABLE_BY_OTHERS");
      assertThat(marker).doesNotExist();
    }
  }

  @Test
  void aBareNameResolvesOnTheSanitizedPath() throws Exception {
    Path dir = tmp.resolve("tools");
    Path tool = TestFiles.script(dir, "mytool", "echo found");
    Map<String, String> host = Map.of("PATH", dir + ":/usr/bin:/bin");
    try (CommandKernel kernel = kernel(p -> p.inheritEnvironment("PATH")
        .executable(ExecutableRule.named("mytool").exact().build()), host)) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv("mytool").build());

      assertThat(result.stdout().text()).isEqualTo("found\n");
      assertThat(result.attestation().executable().path()).isEqualTo(tool.toString());
    }
    try (CommandKernel kernel = kernel(p -> p
        .executable(ExecutableRule.named("mytool").exact().build()), host)) {
      assertThat(kernel.execute(ExecutionRequest.argv("mytool").build()).decision().code())
          .as("without PATH in the policy the default PATH is searched, which does not hold the tool")
          .isEqualTo("EXECUTABLE_NOT_FOUND");
    }
  }

  @Test
  void theSameRequestHasTheSameCommandSpecHashAndAnotherArgvAnother() throws Exception {
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "exit 0");
    try (CommandKernel kernel = kernelAllowing(tool, "a")) {
      String first = kernel.execute(ExecutionRequest.argv(tool.toString(), "a").build()).attestation().commandSpecHash();
      String again = kernel.execute(ExecutionRequest.argv(tool.toString(), "a").build()).attestation().commandSpecHash();
      String other = kernel.execute(ExecutionRequest.argv(tool.toString(), "b").build()).attestation().commandSpecHash();

      assertThat(again).isEqualTo(first);
      assertThat(other).isNotEqualTo(first);
    }
  }

  @Test
  void checkReportsTheExecutableAndBackendWithoutLaunching() throws Exception {
    Path marker = tmp.resolve("ran");
    Path tool = TestFiles.script(tmp.resolve("bin"), "tool", "touch " + marker);
    try (CommandKernel kernel = kernelAllowing(tool)) {
      CheckResult check = kernel.check(ExecutionRequest.argv(tool.toString()).build());

      assertThat(check.decision().allowed()).isTrue();
      assertThat(check.executablePath()).hasValue(tool.toString());
      assertThat(check.executableSha256()).hasValue(Sha256.hex(Files.readAllBytes(tool)));
      assertThat(check.backendId()).hasValue("process");
      assertThat(marker).doesNotExist();
    }
  }
}
