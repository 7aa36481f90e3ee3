package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A machine without a working sandbox: on this module's class path the real discovery finds only
 * the {@code process} backend, which is not one. A policy that grants the host network requires
 * nothing a plain child process lacks, and yet a command nobody named a backend for must not run
 * unconfined unless the operator's policy says so.
 */
class UnisolatedFallbackTest {
  @TempDir Path tmp;
  private Path marker;
  private Path tool;

  @BeforeEach
  void tool() {
    marker = tmp.resolve("ran");
    tool = TestFiles.script(tmp.resolve("bin"), "tool", "touch " + marker + "; echo ran");
  }

  private CommandKernel kernel(UnaryOperator<ExecutionPolicy.Builder> policy) {
    ExecutionPolicy p = policy.apply(ExecutionPolicy.builder()
        .network(NetworkMode.HOST)
        .executable(ExecutableRule.atPath("tool", tool).exact().build())).build();
    return CommandKernel.builder(ExecutionPolicies.of(p)).hostEnvironment(Map.of()).workingDirectory(tmp).build();
  }

  @Test
  void withoutASandboxAnUnnamedBackendIsRefusedBeforeLaunchNamingEachBackendAndWhy() {
    try (CommandKernel kernel = kernel(p -> p)) {
      assertThatThrownBy(() -> kernel.execute(ExecutionRequest.argv(tool.toString()).build()))
          .isInstanceOfSatisfying(BackendUnavailableException.class,
              e -> assertThat(e.code()).isEqualTo(BackendUnavailableException.ISOLATION_UNAVAILABLE))
          .hasMessageContaining("no sandbox is available, and the operator policy does not allow running without one")
          .hasMessageContaining("process (not a sandbox, lacks [NON_ROOT, PID_NAMESPACE, READ_ONLY_ROOT])")
          .hasMessageContaining("\"allowUnisolatedFallback\": true");
      assertThat(marker).doesNotExist();
      assertThat(kernel.check(ExecutionRequest.argv(tool.toString()).build()).decision().code())
          .isEqualTo(BackendUnavailableException.ISOLATION_UNAVAILABLE);
    }
  }

  @Test
  void thePolicysOptInRunsItOnTheProcessBackendAndTheAttestationSaysWhy() {
    try (CommandKernel kernel = kernel(p -> p.allowUnisolatedFallback(true))) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv(tool.toString()).build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.COMPLETED);
      assertThat(marker).exists();
      Attestation.Backend backend = result.attestation().backend();
      assertThat(backend.id()).isEqualTo("process");
      assertThat(backend.choice()).isEqualTo(Attestation.Backend.Choice.UNISOLATED_FALLBACK);
      assertThat(backend.reason())
          .contains("no sandbox fits (process (not a sandbox, lacks [NON_ROOT, PID_NAMESPACE, READ_ONLY_ROOT]))")
          .contains("allowUnisolatedFallback");
      assertThat(AttestationJson.toMap(result.attestation()).get("backend").toString())
          .contains("choice=unisolated-fallback");
    }
  }

  @Test
  void theOptInNeverWidensWhatIsRequired() {
    try (CommandKernel kernel = kernel(p -> p.allowUnisolatedFallback(true).network(NetworkMode.NONE))) {
      assertThatThrownBy(() -> kernel.execute(ExecutionRequest.argv(tool.toString()).build()))
          .isInstanceOfSatisfying(BackendUnavailableException.class,
              e -> assertThat(e.code()).isEqualTo(BackendUnavailableException.ISOLATION_UNAVAILABLE))
          .hasMessageContaining("NETWORK_NAMESPACE");
      assertThat(marker).doesNotExist();
    }
  }

  @Test
  void namingTheProcessBackendRunsItWithoutTheOptInAndTheAttestationSaysItWasNamed() {
    try (CommandKernel kernel = kernel(p -> p)) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv(tool.toString()).backend("process").build());

      assertThat(result.status()).isEqualTo(ExecutionStatus.COMPLETED);
      assertThat(result.attestation().backend().choice()).isEqualTo(Attestation.Backend.Choice.NAMED);
      assertThat(result.attestation().backend().reason()).isEqualTo("named by the request");
    }
  }

  @Test
  void thePolicyFileSaysItInOneMemberThatOnlyChangesTheHashWhenTrue() {
    String without = "{\"version\": 1, \"network\": \"host\"}";
    String off = "{\"version\": 1, \"network\": \"host\", \"allowUnisolatedFallback\": false}";
    String on = "{\"version\": 1, \"network\": \"host\", \"allowUnisolatedFallback\": true}";

    LoadedPolicy allowing = ExecutionPolicies.parse(on, "test");
    assertThat(allowing.policy().allowUnisolatedFallback()).isTrue();
    assertThat(ExecutionPolicies.parse(without, "test").policy().allowUnisolatedFallback()).isFalse();
    assertThat(ExecutionPolicies.parse(off, "test").hash()).isEqualTo(ExecutionPolicies.parse(without, "test").hash());
    assertThat(allowing.hash()).isNotEqualTo(ExecutionPolicies.parse(without, "test").hash());
    assertThat(ExecutionPolicies.parse(ExecutionPolicies.toJson(allowing.policy()), "again").hash()).isEqualTo(allowing.hash());
    assertThatThrownBy(() -> ExecutionPolicies.parse("{\"version\": 1, \"allowUnisolatedFallback\": \"yes\"}", "test"))
        .hasMessageContaining("allowUnisolatedFallback");
  }
}
