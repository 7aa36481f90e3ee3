package dev.capability.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write scope whose root a fresh clone does not have yet ({@code target/**} before the first
 * build) under real bwrap and real Docker, which mount the roots writable: the kernel creates the
 * root, so the command runs and writes into it, and the attestation lists it. A root that is a
 * symbolic link out of the repository is refused, never followed.
 */
class WriteScopeRootsInSandboxTest {
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
  private Path elsewhere;
  private Path touch;

  @AfterAll
  static void close() {
    BWRAP.close();
    DOCKER.close();
  }

  @BeforeEach
  void freshClone() throws IOException {
    Files.setAttribute(tmp, "unix:mode", 0755);
    repository = Files.createDirectory(tmp.resolve("repository")).toRealPath();
    Files.writeString(repository.resolve("pom.xml"), "<project/>\n");
    // The sandbox's uid (nobody as root, Docker's 65534) must be able to write what the kernel
    // creates; a created root takes this mode from the repository. Sticky, so that nobody else
    // may swap the created root for a symlink (Docker refuses a bind source that could be swapped).
    Files.setAttribute(repository, "unix:mode", 01777);
    elsewhere = Files.createDirectory(tmp.resolve("elsewhere")).toRealPath();
    touch = Path.of("/usr/bin/touch").toRealPath();
  }

  @Test
  void aMissingTargetIsCreatedAndWrittenUnderBwrap() {
    assertTheCommandWritesIntoTheCreatedRoot(BWRAP.backend());
  }

  @Test
  void aMissingTargetIsCreatedAndWrittenUnderDocker() {
    assertTheCommandWritesIntoTheCreatedRoot(DOCKER.backend());
  }

  @Test
  void aTargetThatIsASymbolicLinkOutOfTheRepositoryIsRefusedUnderBwrap() throws IOException {
    ExecutionBackend bwrap = BWRAP.backend();
    Files.createSymbolicLink(repository.resolve("target"), elsewhere);

    assertRefusedAndNotFollowed(bwrap, "target/**", "target/x");
  }

  @Test
  void aScopeBelowASymbolicLinkOutOfTheRepositoryIsRefusedUnderBwrap() throws IOException {
    ExecutionBackend bwrap = BWRAP.backend();
    Files.createSymbolicLink(repository.resolve("a"), elsewhere);

    assertRefusedAndNotFollowed(bwrap, "a/b/**", "a/b/x");
  }

  private void assertTheCommandWritesIntoTheCreatedRoot(ExecutionBackend backend) {
    ExecutionResult result = kernel(backend, "target/**", "target/x").execute(request("target/x"));

    assertThat(result.status()).as("%s: %s", result.failureMessage(), result.stderr().text()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(result.exitCode()).as(result.stderr().text()).hasValue(0);
    assertThat(repository.resolve("target/x")).isRegularFile();
    assertThat(result.attestation().createdScopeRoots()).containsExactly("target");
    assertThat(result.attestation().violations()).isEmpty();
    assertThat(result.attestation().backend().id()).isEqualTo(backend.id());
  }

  private void assertRefusedAndNotFollowed(ExecutionBackend backend, String scope, String file) {
    CommandKernel kernel = kernel(backend, scope, file);

    assertThatThrownBy(() -> kernel.execute(request(file)))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo("SCOPE_THROUGH_SYMLINK"));
    assertThat(elsewhere).isEmptyDirectory();
  }

  /** A kernel on the gate's backend; never closed, since closing a kernel closes its backends, which the gates close. */
  private CommandKernel kernel(ExecutionBackend backend, String scope, String file) {
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .projectWrites(ProjectWriteMode.SCOPED)
        .writeScopes(List.of(scope))
        .executable(ExecutableRule.atPath("touch", touch).exact(file).build())
        .build();
    return CommandKernel.builder(ExecutionPolicies.of(policy)).discoverBackends(false).backend(backend)
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin")).build();
  }

  private ExecutionRequest request(String file) {
    return ExecutionRequest.argv(touch.toString(), file).repository(repository).build();
  }
}
