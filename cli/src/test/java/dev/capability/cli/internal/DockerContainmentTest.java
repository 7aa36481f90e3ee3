package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.docker.DockerBackendProvider;
import dev.capability.backend.docker.LocalRuntimeImage;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Through the kernel and the CLI's exit-code table, on a real docker backend with a small memory limit. */
class DockerContainmentTest {
  private static final BackendGate DOCKER;

  static {
    try {
      LocalRuntimeImage.ensure(LocalRuntimeImage.defaultTag());
    } catch (BackendUnavailableException e) {
      // The gate's probe says what is missing: the tests skip, or fail when backends are required.
    }
    DOCKER = BackendGate.of(new DockerBackendProvider(), new BackendConfig(Map.of("docker.limit.memory", "64M")));
  }

  @TempDir Path directory;

  @AfterAll
  static void close() {
    DOCKER.close();
  }

  /** A kernel on the gate's backend; never closed, since closing a kernel closes its backends, which the gate closes. */
  private static CommandKernel kernel(ExecutionPolicy policy) {
    return CommandKernel.builder(ExecutionPolicies.of(policy)).discoverBackends(false).backend(DOCKER.backend())
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin")).build();
  }

  @Test
  void anOutOfMemoryKillIsItsOwnStatusRecordedInTheAttestationAndABoundHitForTheCli() {
    String hog = "my $x = 'x' x (512 * 1024 * 1024); exit 0";
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .executable(ExecutableRule.named("perl").exact("-e", hog).build())
        .build();

    ExecutionResult result = kernel(policy).execute(
        ExecutionRequest.argv("perl", "-e", hog).workingDirectory(directory).build());

    assertThat(result.status()).as(result.stderr().text()).isEqualTo(ExecutionStatus.MEMORY_LIMIT);
    assertThat(result.exitCode()).hasValue(137);
    assertThat(result.attestation().status()).isEqualTo(ExecutionStatus.MEMORY_LIMIT);
    assertThat(AttestationJson.toMap(result.attestation())).containsEntry("status", "MEMORY_LIMIT");
    assertThat(ExitCodes.forExec(result)).isEqualTo(ExitCodes.BOUND_HIT);
  }

  private static ExecutionPolicy catPolicy(Map<String, String> minimums) {
    ExecutionPolicy.Builder policy = ExecutionPolicy.builder()
        .executable(ExecutableRule.named("cat").exact("/proc/version").build());
    minimums.forEach((component, version) -> policy.minimumBackendVersion("docker", component, version));
    return policy.build();
  }

  @Test
  void theAttestationRecordsTheVersionsThatEnforceTheContainer() {
    ExecutionResult result = kernel(catPolicy(Map.of("daemon", "1", "runc", "1.0", "kernel", "3.10")))
        .execute(ExecutionRequest.argv("cat", "/proc/version").workingDirectory(directory).build());

    assertThat(result.status()).as(result.stderr().text()).isEqualTo(ExecutionStatus.COMPLETED);
    Map<String, String> versions = result.attestation().backend().versions();
    assertThat(versions).containsKeys("daemon", "api", "containerd", "runc", "kernel");
    assertThat(versions.get("daemon")).matches("\\d+\\.\\d+.*");
    assertThat(versions.get("kernel")).isEqualTo(System.getProperty("os.version"));
    // The project's seccomp profiles, by digest, since they decide what the kernel refuses.
    assertThat(versions.get("seccomp-profile")).matches("sha256:[0-9a-f]{64}");
    assertThat(versions.get("seccomp-profile-network")).matches("sha256:[0-9a-f]{64}");
    assertThat(result.stdout().text()).contains(versions.get("kernel"));
    @SuppressWarnings("unchecked")
    Map<String, Object> backend = (Map<String, Object>) AttestationJson.toMap(result.attestation()).get("backend");
    assertThat(backend).containsEntry("versions", versions);
  }

  @Test
  void aDaemonOlderThanThePolicysMinimumIsRefusedBeforeLaunch() {
    CommandKernel kernel = kernel(catPolicy(Map.of("daemon", "999.1")));
    ExecutionRequest request = ExecutionRequest.argv("cat", "/proc/version").workingDirectory(directory).build();

    assertThatThrownBy(() -> kernel.execute(request))
        .isInstanceOfSatisfying(BackendUnavailableException.class, e -> {
          assertThat(e.code()).isEqualTo(BackendUnavailableException.VERSION_TOO_OLD);
          assertThat(ExitCodes.forExecException(e)).isEqualTo(ExitCodes.CANNOT_EXECUTE);
        })
        .hasMessageContaining("is older than the policy's minimum 999.1");
    assertThat(kernel.check(request).decision().code()).isEqualTo(BackendUnavailableException.VERSION_TOO_OLD);
  }

  @Test
  void argumentsBeyondTheContainersExecLimitAreALaunchFailureNamingTheirCode() {
    String[] argv = new String[3 + 40];
    argv[0] = "perl";
    argv[1] = "-e";
    argv[2] = "exit 0";
    Arrays.fill(argv, 3, argv.length, "a".repeat(100_000));
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .executable(ExecutableRule.named("perl").exact(Arrays.copyOfRange(argv, 1, argv.length)).build())
        .build();

    ExecutionResult result = kernel(policy).execute(ExecutionRequest.argv(argv).workingDirectory(directory).build());

    assertThat(result.status()).isEqualTo(ExecutionStatus.LAUNCH_FAILED);
    assertThat(result.failureMessage()).startsWith("ARGUMENT_LIST_TOO_LONG: the arguments and environment of");
    assertThat(ExitCodes.forExec(result)).isEqualTo(ExitCodes.CANNOT_EXECUTE);
  }
}
