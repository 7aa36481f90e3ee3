package dev.capability.kernel.core;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.testing.Git;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Programs planted in the git configuration of repositories an allowed git command opens, run
 * through the whole kernel on the process backend with real git: none runs, and the attestation
 * names what was neutralized. Each attack is shown to work on plain git first.
 */
class GitNeutralizationPipelineTest {
  @TempDir Path tmp;
  private Path repo;
  private Path gitPath;

  @BeforeEach
  void repository() throws Exception {
    repo = Files.createDirectories(tmp.resolve("repo")).toRealPath();
    Files.writeString(repo.resolve("README"), "hello\n");
    git(repo, "init", "-q", "-b", "main");
    git(repo, "add", "README");
    git(repo, "commit", "-q", "-m", "first");
    gitPath = Path.of("/usr/bin/git").toRealPath();
  }

  private ExecutionResult run(String... args) {
    List<String> argv = new ArrayList<>(List.of(gitPath.toString()));
    argv.addAll(List.of(args));
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .network(NetworkMode.HOST).allowUnisolatedFallback(true)
        .setEnvironment("GIT_AUTHOR_NAME", "t").setEnvironment("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .setEnvironment("GIT_COMMITTER_NAME", "t").setEnvironment("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .executable(ExecutableRule.atPath("git", gitPath).exact(args).build())
        .build();
    try (CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.of(policy)).hostEnvironment(Map.of()).build()) {
      return kernel.execute(ExecutionRequest.argv(argv).repository(repo).build());
    }
  }

  @Test
  void aNestedRepositorysFilterNeverRunsWhenAnAllowedCommandGoesIntoItWithDashC() throws Exception {
    Path marker = tmp.resolve("nested-filter-ran");
    Path filter = TestFiles.script(tmp.resolve("helpers"), "filter", "touch " + marker + "\ncat");
    Path nested = Files.createDirectories(repo.resolve("nested"));
    Files.writeString(nested.resolve("README"), "nested\n");
    Files.writeString(nested.resolve(".gitattributes"), "README filter=planted\n");
    git(nested, "init", "-q", "-b", "main");
    git(nested, "add", ".");
    git(nested, "commit", "-q", "-m", "nested");
    git(nested, "config", "filter.planted.clean", filter.toString());
    Files.setLastModifiedTime(nested.resolve("README"), FileTime.fromMillis(1_100_000_000_000L));

    ExecutionResult result = run("-C", "nested", "status", "--short");

    assertThat(result.status()).as(result.stderr().text()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(result.exitCode()).as(result.stderr().text()).hasValue(0);
    assertThat(marker).as("the nested repository's filter must not run").doesNotExist();
    assertThat(result.attestation().neutralization())
        .contains("filter.planted.clean=", "filter.planted.required=false", "safe.directory=" + nested);
    // The neutralized status refreshed the index; a new time makes git read README again.
    Files.setLastModifiedTime(nested.resolve("README"), FileTime.fromMillis(1_200_000_000_000L));
    git(nested, "status", "--short");
    assertThat(marker).as("the planted filter runs under plain git").exists();
  }

  @Test
  void theSshSigningKeyCommandNeverRunsWhenAnAllowedCommitIsSigned() throws Exception {
    Path marker = tmp.resolve("key-command-ran");
    Path command = TestFiles.script(tmp.resolve("helpers"), "key", "touch " + marker);
    git(repo, "config", "commit.gpgSign", "true");
    git(repo, "config", "gpg.format", "ssh");
    git(repo, "config", "gpg.ssh.defaultKeyCommand", command.toString());

    ExecutionResult result = run("commit", "-q", "--allow-empty", "-m", "signed");

    assertThat(result.exitCode()).as("the commit was launched: %s %s", result.decision().message(), result.failureMessage())
        .isPresent();
    assertThat(marker).as("gpg.ssh.defaultKeyCommand must not run: %s", result.stderr().text()).doesNotExist();
    assertThat(result.attestation().neutralization()).contains("gpg.ssh.defaultKeyCommand=");
    Git.run(repo, Map.of(), "commit", "-q", "--allow-empty", "-m", "signed");
    assertThat(marker).as("the planted key command runs under plain git").exists();
  }

  @Test
  void checkFindsAProgramNamedInAnIncludedFileWithoutStartingGit() throws Exception {
    // The policy's git is a program that leaves a marker if anything starts it.
    Path started = tmp.resolve("git-started");
    Path markerGit = TestFiles.script(tmp.resolve("marker-bin"), "git", "touch " + started);
    Path included = tmp.resolve("included.config");
    Files.writeString(included, "[sendemail]\n\ttoCmd = " + tmp.resolve("evil") + "\n");
    git(repo, "config", "include.path", included.toString());
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .network(NetworkMode.HOST).allowUnisolatedFallback(true)
        .executable(ExecutableRule.atPath("git", markerGit).exact("status", "--short").build())
        .build();

    CheckResult check;
    try (CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.of(policy)).hostEnvironment(Map.of()).build()) {
      check = kernel.check(ExecutionRequest.argv(List.of(markerGit.toString(), "status", "--short")).repository(repo).build());
    }

    assertThat(check.decision().code()).as(check.decision().message()).isEqualTo("GIT_CONFIGURATION_REFUSED");
    assertThat(check.decision().message()).contains("sendemail.tocmd", included.toString());
    assertThat(started).as("deciding the command started git").doesNotExist();
  }

  @Test
  void aFilterNamedInAnIncludedFileNeverRunsUnderTheKernel() throws Exception {
    Path marker = tmp.resolve("included-filter-ran");
    Path filter = TestFiles.script(tmp.resolve("helpers"), "filter", "touch " + marker + "\ncat");
    Path included = tmp.resolve("included.config");
    Files.writeString(included, "[filter \"planted\"]\n\tclean = " + filter + "\n");
    git(repo, "config", "include.path", included.toString());
    Files.writeString(repo.resolve(".gitattributes"), "README filter=planted\n");
    Files.setLastModifiedTime(repo.resolve("README"), FileTime.fromMillis(1_100_000_000_000L));

    ExecutionResult result = run("status", "--short");

    assertThat(result.exitCode()).as(result.stderr().text()).hasValue(0);
    assertThat(marker).as("the included filter must not run").doesNotExist();
    assertThat(result.attestation().neutralization()).contains("filter.planted.clean=", "filter.planted.required=false");
    Files.setLastModifiedTime(repo.resolve("README"), FileTime.fromMillis(1_200_000_000_000L));
    git(repo, "status", "--short");
    assertThat(marker).as("the included filter runs under plain git").exists();
  }

  @Test
  void aProgramKeyNoValueNeutralizesRefusesTheCommandBeforeLaunch() throws Exception {
    git(repo, "config", "sendemail.toCmd", tmp.resolve("evil").toString());

    ExecutionResult result = run("status", "--short");

    assertThat(result.status()).isEqualTo(ExecutionStatus.DENIED);
    assertThat(result.decision().code()).isEqualTo("GIT_CONFIGURATION_REFUSED");
    assertThat(result.decision().message()).contains("sendemail.tocmd", ".git/config");
  }
}
