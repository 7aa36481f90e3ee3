package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.docker.DockerBackendProvider;
import dev.capability.backend.docker.LocalRuntimeImage;
import dev.capability.backend.process.ProcessBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.core.Backends;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The child-JVM executor chooses its backend in the kernel's registry by the kernel's rule: on a
 * machine without bwrap but with Docker (a registry limited to the Docker and process backends),
 * it picks Docker unasked and runs the capability in a container. Skipped with the probe's reason
 * where Docker cannot run, failed instead under {@code CAPABILITY_REQUIRE_BACKENDS=1}.
 */
class ChildJvmBackendChoiceTest {
  @TempDir Path work;

  @BeforeAll
  static void image() {
    try {
      LocalRuntimeImage.ensure(LocalRuntimeImage.defaultTag());
    } catch (BackendUnavailableException e) {
      // The gate's probe says what is missing: the test skips, or fails when backends are required.
    }
    try (BackendGate docker = BackendGate.of(new DockerBackendProvider(), BackendConfig.defaults())) {
      docker.backend();
    }
  }

  @Test
  void withoutBwrapTheChildJvmExecutorPicksDockerAndRunsInAContainer() throws IOException {
    // The container runs as another user: the base directory must let it through.
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
    CapabilityPackage pkg = TestPackages.verifyingTool(work, "{}");

    try (Backends dockerAndProcess =
            Backends.of(List.of(new ProcessBackendProvider(), new DockerBackendProvider()), BackendConfig.defaults());
        CapabilityRuntime runtime = CapabilityRuntime.builder().executorConfig(ExecutorConfig.of(work, dockerAndProcess)).build()) {
      assertThat(runtime.executor().id()).isEqualTo(CapabilityExecutors.CHILD_JVM);
      assertThat(runtime.executor().advertises()).containsEntry("backend", "docker").containsEntry("isolation", "sandbox");

      ExecutionReceipt receipt = runtime.run(pkg, "{\"text\":\"x\"}");

      assertThat(receipt.outcome()).as(receipt.message()).isEqualTo(ExecutionOutcome.SUCCEEDED);
      assertThat(receipt.output()).contains("{\"ok\":true}");
      assertThat(receipt.boundaryApplied()).isTrue();
      assertThat(receipt.attestation()).hasValueSatisfying(a -> assertThat(a.backend().id()).isEqualTo("docker"));
    }
  }
}
