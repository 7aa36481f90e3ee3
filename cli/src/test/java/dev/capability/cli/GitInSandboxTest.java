package dev.capability.cli;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.docker.DockerBackendProvider;
import dev.capability.backend.docker.LocalRuntimeImage;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.testing.Ownership;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's {@code git status --short} on a repository the sandbox uid does not own, under real
 * bwrap and real Docker: git works because the kernel marks exactly the request's repository safe,
 * the attestation records it, and the setting cannot be widened by the command or its environment.
 */
class GitInSandboxTest {
  /** A uid that owns nothing on the host, for the repository when this JVM is root. */
  private static final int OTHER_UID = 12345;
  /** The uid Docker containers run as. */
  private static final int CONTAINER_UID = 65534;

  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final BackendGate DOCKER;

  static {
    try {
      LocalRuntimeImage.ensure(LocalRuntimeImage.defaultTag());
    } catch (BackendUnavailableException e) {
      // The gate's probe names what is missing; the docker tests are then skipped or fail.
    }
    DOCKER = BackendGate.of(new DockerBackendProvider(), BackendConfig.defaults());
  }

  @TempDir Path tmp;
  private Path repository;

  @AfterAll
  static void close() {
    BWRAP.close();
    DOCKER.close();
  }

  @BeforeEach
  void repository() throws IOException {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    repository = Files.createDirectory(tmp.resolve("repository")).toRealPath();
    git(repository, "init", "-q", "-b", "main");
    Files.writeString(repository.resolve("README"), "hello\n");
    git(repository, "add", "README");
    git(repository, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "first");
    Files.writeString(repository.resolve("README"), "changed\n");
    Ownership.readableByEveryone(repository);
  }

  @Test
  void gitStatusWorksUnderBwrapOnARepositoryAnotherUidOwns() throws IOException {
    assumeTrue(Ownership.currentUid() == 0, "bwrap runs as the caller's own uid when not root, so no other uid can own the repository;"
        + " this test runs as uid " + Ownership.currentUid());
    ExecutionBackend bwrap = BWRAP.backend();
    Ownership.chownTree(repository, OTHER_UID);

    assertGitStatusWorksAndIsAttested(bwrap);
  }

  @Test
  void gitStatusWorksUnderDockerOnARepositoryAnotherUidOwns() throws IOException {
    ExecutionBackend docker = DOCKER.backend();
    if (Ownership.currentUid() == 0) {
      Ownership.chownTree(repository, OTHER_UID);
    }
    assertThat(owner()).as("the repository's owner").isNotEqualTo(CONTAINER_UID);

    assertGitStatusWorksAndIsAttested(docker);
  }

  @Test
  void theSandboxedGitTrustsExactlyTheRepositoryWhateverTheEnvironmentSays() throws IOException {
    ExecutionBackend docker = DOCKER.backend();
    if (Ownership.currentUid() == 0) {
      Ownership.chownTree(repository, OTHER_UID);
    }
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .setEnvironment("GIT_CONFIG_COUNT", "1")
        .setEnvironment("GIT_CONFIG_KEY_0", "safe.directory")
        .setEnvironment("GIT_CONFIG_VALUE_0", "*")
        .executable(ExecutableRule.named("git").exact("config", "--get-all", "safe.directory").build())
        .build();
    CommandKernel kernel = kernel(policy, docker, Map.of("PATH", "/usr/bin:/bin"));
    ExecutionResult result = kernel.execute(request("git", "config", "--get-all", "safe.directory"));

    assertThat(result.exitCode()).as(result.stderr().text()).hasValue(0);
    assertThat(result.stdout().text()).isEqualTo(repository + "\n");
  }

  @Test
  void aSafeDirectoryFromTheCommandOrTheHostEnvironmentIsRefused() {
    ExecutionBackend docker = DOCKER.backend();
    ExecutionPolicy viaCommand = ExecutionPolicy.builder()
        .executable(ExecutableRule.named("git").exact("-c", "safe.directory=*", "status").build())
        .build();
    ExecutionPolicy viaHost = ExecutionPolicy.builder()
        .inheritEnvironment("PATH", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0")
        .executable(ExecutableRule.named("git").exact("status").build())
        .build();

    CommandKernel kernel = kernel(viaCommand, docker, Map.of("PATH", "/usr/bin:/bin"));
    ExecutionResult result = kernel.execute(request("git", "-c", "safe.directory=*", "status"));
    assertThat(result.status()).isEqualTo(ExecutionStatus.DENIED);
    assertThat(result.decision().code()).isEqualTo("GIT_CONFIGURATION_OVERRIDE");
    assertThatThrownBy(() -> ExecutionPolicies.of(viaHost))
        .isInstanceOfSatisfying(CapabilityException.class,
            e -> assertThat(e.code()).isEqualTo("POLICY_ENVIRONMENT_DENIED"))
        .hasMessageContaining("GIT_CONFIG_COUNT");
  }

  /**
   * A nested repository at {@code nested} whose README is stat-dirty, and {@code out}, a directory
   * the sandbox uid may write, where a planted filter would leave its marker.
   */
  private Path nestedRepository() throws IOException {
    Path nested = Files.createDirectories(repository.resolve("nested"));
    git(nested, "init", "-q", "-b", "main");
    Files.writeString(nested.resolve("README"), "nested\n");
    Files.writeString(nested.resolve(".gitattributes"), "README filter=planted\n");
    git(nested, "add", ".");
    git(nested, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "nested");
    Files.setLastModifiedTime(nested.resolve("README"), java.nio.file.attribute.FileTime.fromMillis(1_100_000_000_000L));
    Path out = Files.createDirectory(repository.resolve("out"));
    Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwxrwxrwx"));
    return nested;
  }

  private ExecutionPolicy gitPolicy(List<String> writeScopes, String... args) {
    return ExecutionPolicy.builder()
        .projectWrites(dev.capability.kernel.api.policy.ProjectWriteMode.SCOPED)
        .writeScopes(writeScopes)
        .executable(ExecutableRule.named("git").exact(args).build())
        .build();
  }

  @Test
  void aCommandUnderBwrapCannotPlantADriverInANestedRepositoryForLaterGitCommands() throws IOException {
    ExecutionBackend bwrap = BWRAP.backend();
    Path nested = nestedRepository();
    String config = Files.readString(nested.resolve(".git/config"));
    openForEveryone(nested);
    Path planter = Files.createDirectories(tmp.resolve("bin")).resolve("planter");
    Files.writeString(planter, "#!/bin/sh\n"
        + "printf '[filter \"planted\"]\\n\\tclean = touch " + repository.resolve("out/pwned") + "\\n'"
        + " >> nested/.git/config && echo planted\n"
        + "touch nested/written && echo wrote-beside\n");
    Files.setPosixFilePermissions(planter, PosixFilePermissions.fromString("rwxr-xr-x"));
    ExecutionPolicy plantPolicy = ExecutionPolicy.builder()
        .projectWrites(dev.capability.kernel.api.policy.ProjectWriteMode.SCOPED)
        .writeScopes(List.of("nested/**"))
        .executable(ExecutableRule.atPath("planter", planter.toRealPath()).exact().build())
        .build();

    ExecutionResult plant = kernel(plantPolicy, bwrap, Map.of("PATH", "/usr/bin:/bin"))
        .execute(request(planter.toRealPath().toString()));
    assertThat(plant.stdout().text()).as(plant.stderr().text()).isEqualTo("wrote-beside\n");
    assertThat(nested.resolve(".git/config")).as("the nested repository's configuration").hasContent(config);

    ExecutionResult status = kernel(gitPolicy(List.of("out/**"), "-C", "nested", "status", "--short"), bwrap,
        Map.of("PATH", "/usr/bin:/bin")).execute(request("git", "-C", "nested", "status", "--short"));
    assertThat(status.exitCode()).as(status.stderr().text()).hasValue(0);
    assertThat(repository.resolve("out/pwned")).doesNotExist();
  }

  @Test
  void theDriversOfANestedRepositoryTheSandboxUidOwnsNeverRunUnderBwrap() throws IOException {
    assumeTrue(Ownership.currentUid() == 0, "giving the nested repository to the sandbox uid needs root; this test runs as uid " + Ownership.currentUid());
    ExecutionBackend bwrap = BWRAP.backend();
    Path nested = nestedRepository();
    git(nested, "config", "filter.planted.clean", "touch " + repository.resolve("out/pwned"));
    Ownership.chownTree(repository, OTHER_UID);
    Ownership.chownTree(nested, CONTAINER_UID);
    Files.setAttribute(repository.resolve("out"), "unix:uid", CONTAINER_UID, LinkOption.NOFOLLOW_LINKS);

    ExecutionResult status = kernel(gitPolicy(List.of("out/**"), "-C", "nested", "status", "--short"), bwrap,
        Map.of("PATH", "/usr/bin:/bin")).execute(request("git", "-C", "nested", "status", "--short"));

    assertThat(status.exitCode()).as(status.stderr().text()).hasValue(0);
    assertThat(repository.resolve("out/pwned")).as("the nested repository's filter ran in the sandbox").doesNotExist();
    assertThat(status.attestation().neutralization())
        .contains("filter.planted.clean=", "safe.directory=" + nested);
  }

  private void assertGitStatusWorksAndIsAttested(ExecutionBackend backend) {
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .executable(ExecutableRule.named("git").exact("status", "--short").build())
        .build();
    CommandKernel kernel = kernel(policy, backend, Map.of("PATH", "/usr/bin:/bin"));
    ExecutionResult result = kernel.execute(request("git", "status", "--short"));

    assertThat(result.status()).as(result.stderr().text()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(result.exitCode()).as(result.stderr().text()).hasValue(0);
    assertThat(result.stdout().text()).isEqualTo(" M README\n");
    assertThat(result.attestation().backend().id()).isEqualTo(backend.id());
    assertThat(result.attestation().neutralization())
        .contains("safe.directory=" + repository)
        .noneMatch(setting -> setting.equals("safe.directory=*"));
  }

  /** A kernel on the gate's backend; never closed, since closing a kernel closes its backends, which the gates close. */
  private CommandKernel kernel(ExecutionPolicy policy, ExecutionBackend backend, Map<String, String> host) {
    return CommandKernel.builder(ExecutionPolicies.of(policy)).discoverBackends(false).backend(backend)
        .hostEnvironment(host).build();
  }

  private ExecutionRequest request(String... argv) {
    return ExecutionRequest.argv(argv).repository(repository).build();
  }

  private int owner() throws IOException {
    return (Integer) Files.getAttribute(repository, "unix:uid", LinkOption.NOFOLLOW_LINKS);
  }

  /** Makes {@code directory} and everything below it writable by every uid, as a write scope needs for the sandbox uid. */
  private static void openForEveryone(Path directory) throws IOException {
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(Files.isDirectory(path) ? "rwxrwxrwx" : "rw-rw-rw-"));
      }
    }
  }
}
