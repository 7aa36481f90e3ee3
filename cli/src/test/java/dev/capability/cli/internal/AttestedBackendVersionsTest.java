package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.process.ProcessBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The bwrap and process backends' attestations name the versions that enforce them; a policy can require minimums. */
class AttestedBackendVersionsTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final BackendGate PROCESS = BackendGate.of(new ProcessBackendProvider(), BackendConfig.defaults());

  @AfterAll
  static void close() {
    BWRAP.close();
    PROCESS.close();
  }

  private ExecutionResult cat(ExecutionBackend backend, ExecutionPolicy.Builder policy) {
    CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.of(
            policy.executable(ExecutableRule.named("cat").exact("/proc/version").build()).build()))
        .discoverBackends(false).backend(backend).hostEnvironment(Map.of("PATH", "/usr/bin:/bin")).build();
    return kernel.execute(
        ExecutionRequest.argv("cat", "/proc/version").workingDirectory(Path.of("/usr")).backend(backend.id()).build());
  }

  @Test
  void bwrapRecordsTheVersionBwrapReportsAndTheKernel() throws IOException, InterruptedException {
    ExecutionBackend backend = BWRAP.backend();
    Process version = new ProcessBuilder(backend.diagnostics().get("bwrap").replaceFirst("^.* at ", ""), "--version")
        .redirectErrorStream(true).start();
    String reported = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    version.waitFor();

    ExecutionResult result = cat(backend, ExecutionPolicy.builder().minimumBackendVersion("bwrap", "bwrap", "0.4"));

    assertThat(result.status()).as(result.stderr().text()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(result.attestation().backend().versions())
        .containsEntry("bwrap", reported.replaceFirst("^bubblewrap ", ""))
        .containsEntry("kernel", System.getProperty("os.version"));
  }

  @Test
  void aBwrapOlderThanThePolicysMinimumIsRefused() {
    assertThatThrownBy(() -> cat(BWRAP.backend(), ExecutionPolicy.builder().minimumBackendVersion("bwrap", "bwrap", "99")))
        .isInstanceOfSatisfying(BackendUnavailableException.class,
            e -> assertThat(e.code()).isEqualTo(BackendUnavailableException.VERSION_TOO_OLD));
  }

  @Test
  void theProcessBackendRecordsTheKernelAndIsHeldToItsMinimum() {
    // The process backend has no network namespace: the policy must allow the network to use it.
    ExecutionResult result = cat(PROCESS.backend(), ExecutionPolicy.builder().network(NetworkMode.HOST));

    assertThat(result.attestation().backend().versions()).isEqualTo(Map.of("kernel", System.getProperty("os.version")));
    assertThatThrownBy(() -> cat(PROCESS.backend(),
        ExecutionPolicy.builder().network(NetworkMode.HOST).minimumBackendVersion("process", "kernel", "999")))
        .isInstanceOfSatisfying(BackendUnavailableException.class,
            e -> assertThat(e.code()).isEqualTo(BackendUnavailableException.VERSION_TOO_OLD));
  }
}
