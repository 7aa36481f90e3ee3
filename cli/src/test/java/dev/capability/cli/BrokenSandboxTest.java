package dev.capability.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A machine whose sandboxes break: every backend is on the class path and found by the real
 * discovery, but the configured bwrap is a binary that cannot start a sandbox and Docker's runtime
 * image does not exist. A policy that grants the host network requires nothing the process backend
 * lacks; a command nobody named a backend for still must not silently run unconfined.
 */
class BrokenSandboxTest {
  private static final BackendConfig BROKEN = new BackendConfig(Map.of(
      "bwrap.path", "/usr/bin/false",
      "docker.image", "capability-kernel-tests/no-such-image:0"));

  @TempDir Path tmp;
  private Path marker;
  private Path tool;

  @BeforeEach
  void tool() throws Exception {
    marker = tmp.resolve("ran");
    tool = Files.createDirectories(tmp.resolve("bin")).resolve("tool");
    Files.writeString(tool, "#!/bin/sh\ntouch " + marker + "\n");
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    tool = tool.toRealPath();
  }

  private CommandKernel kernel(UnaryOperator<ExecutionPolicy.Builder> policy) {
    ExecutionPolicy p = policy.apply(ExecutionPolicy.builder().network(NetworkMode.HOST)
        .executable(ExecutableRule.atPath("tool", tool).exact().build())).build();
    return CommandKernel.builder(ExecutionPolicies.of(p)).hostEnvironment(Map.of()).backendConfig(BROKEN).build();
  }

  @Test
  void withEverySandboxBrokenAnUnnamedBackendIsRefusedBeforeLaunchSayingWhyForEach() {
    try (CommandKernel kernel = kernel(p -> p)) {
      assertThat(kernel.backends()).filteredOn(s -> !s.id().equals("process")).noneMatch(s -> s.available());

      assertThatThrownBy(() -> kernel.execute(ExecutionRequest.argv(tool.toString()).build()))
          .isInstanceOfSatisfying(BackendUnavailableException.class,
              e -> assertThat(e.code()).isEqualTo(BackendUnavailableException.ISOLATION_UNAVAILABLE))
          .hasMessageContaining("bwrap (unavailable: ")
          .hasMessageContaining("docker (unavailable: ")
          .hasMessageContaining("process (not a sandbox, lacks [NON_ROOT, PID_NAMESPACE, READ_ONLY_ROOT])")
          .hasMessageContaining("allowUnisolatedFallback");
      assertThat(marker).doesNotExist();
    }
  }

  @Test
  void withThePolicysOptInItRunsUnderTheProcessBackendAndTheAttestationSaysWhy() {
    try (CommandKernel kernel = kernel(p -> p.allowUnisolatedFallback(true))) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv(tool.toString()).build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.COMPLETED);
      assertThat(marker).exists();
      Attestation.Backend backend = result.attestation().backend();
      assertThat(backend.id()).isEqualTo("process");
      assertThat(backend.choice()).isEqualTo(Attestation.Backend.Choice.UNISOLATED_FALLBACK);
      assertThat(backend.reason()).contains("bwrap (unavailable: ").contains("docker (unavailable: ")
          .contains("allowUnisolatedFallback");
    }
  }
}
