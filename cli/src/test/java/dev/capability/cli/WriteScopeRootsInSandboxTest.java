package dev.capability.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.docker.DockerBackendProvider;
import dev.capability.backend.docker.LocalRuntimeImage;
import dev.capability.backend.tck.BackendGate;
import dev.capability.junit5.CapabilitySandbox;
import dev.capability.junit5.SandboxRepository;
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
  /** The bwrap tests' policy, for {@code @CapabilitySandbox}: {@code touch target/x}, writes to {@code target/**}. */
  private static final String TOUCH_TARGET_X = """
      {"version": 1, "network": "none", "projectWrites": "scoped", "writeScopes": ["target/**"],
       "environment": {"inherit": ["PATH"]}, "executables": {"touch": {"name": "touch", "exact": [["target/x"]]}}}
      """;
  /** {@code touch a/b/x}, writes to {@code a/b/**}. */
  private static final String TOUCH_A_B_X = """
      {"version": 1, "network": "none", "projectWrites": "scoped", "writeScopes": ["a/b/**"],
       "environment": {"inherit": ["PATH"]}, "executables": {"touch": {"name": "touch", "exact": [["a/b/x"]]}}}
      """;
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
  @CapabilitySandbox(policy = TOUCH_TARGET_X, backend = "bwrap")
  void aMissingTargetIsCreatedAndWrittenUnderBwrap(CommandKernel kernel, @SandboxRepository Path repository) throws IOException {
    Files.writeString(repository.resolve("pom.xml"), "<project/>\n");

    assertTheCommandWroteIntoTheCreatedRoot(kernel.execute(request(repository, "target/x")), repository, "bwrap");
  }

  @Test
  void aMissingTargetIsCreatedAndWrittenUnderDocker() {
    assertTheCommandWritesIntoTheCreatedRoot(DOCKER.backend());
  }

  @Test
  @CapabilitySandbox(policy = TOUCH_TARGET_X, backend = "bwrap")
  void aTargetThatIsASymbolicLinkOutOfTheRepositoryIsRefusedUnderBwrap(CommandKernel kernel, @SandboxRepository Path repository)
      throws IOException {
    Files.createSymbolicLink(repository.resolve("target"), elsewhere);

    assertRefusedAndNotFollowed(kernel, request(repository, "target/x"));
  }

  @Test
  @CapabilitySandbox(policy = TOUCH_A_B_X, backend = "bwrap")
  void aScopeBelowASymbolicLinkOutOfTheRepositoryIsRefusedUnderBwrap(CommandKernel kernel, @SandboxRepository Path repository)
      throws IOException {
    Files.createSymbolicLink(repository.resolve("a"), elsewhere);

    assertRefusedAndNotFollowed(kernel, request(repository, "a/b/x"));
  }

  private void assertTheCommandWritesIntoTheCreatedRoot(ExecutionBackend backend) {
    assertTheCommandWroteIntoTheCreatedRoot(kernel(backend, "target/**", "target/x").execute(request("target/x")), repository, backend.id());
  }

  private static void assertTheCommandWroteIntoTheCreatedRoot(ExecutionResult result, Path repository, String backend) {
    assertThat(result.status()).as("%s: %s", result.failureMessage(), result.stderr().text()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(result.exitCode()).as(result.stderr().text()).hasValue(0);
    assertThat(repository.resolve("target/x")).isRegularFile();
    assertThat(result.attestation().createdScopeRoots()).containsExactly("target");
    assertThat(result.attestation().violations()).isEmpty();
    assertThat(result.attestation().backend().id()).isEqualTo(backend);
  }

  private void assertRefusedAndNotFollowed(CommandKernel kernel, ExecutionRequest request) {
    assertThatThrownBy(() -> kernel.execute(request))
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

  /** A request of the bwrap tests, whose policy names {@code touch} by name, found on the inherited {@code PATH}. */
  private static ExecutionRequest request(Path repository, String file) {
    return ExecutionRequest.argv("touch", file).repository(repository).build();
  }
}
