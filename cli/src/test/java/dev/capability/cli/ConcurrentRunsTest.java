package dev.capability.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.process.ProcessBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two runs on one repository at once, each allowed to write only its own directory: each audit
 * sees only its own run's writes (and none of a sandbox's mount-point placeholders), because runs
 * on one repository take turns from snapshot to audit.
 */
class ConcurrentRunsTest {
  private static final BackendGate PROCESS = BackendGate.of(new ProcessBackendProvider(), BackendConfig.defaults());
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());

  @TempDir Path tmp;
  private Path repository;
  private Path writer;

  @AfterAll
  static void close() {
    PROCESS.close();
    BWRAP.close();
  }

  @BeforeEach
  void fixtures() throws Exception {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    repository = Files.createDirectory(tmp.resolve("repository")).toRealPath();
    // Open to all, so that bwrap's sandbox uid (65534 under root) can write the scope roots.
    Files.setPosixFilePermissions(repository, PosixFilePermissions.fromString("rwxrwxrwx"));
    Files.createDirectories(repository.resolve("a"));
    Files.createDirectories(repository.resolve("b"));
    for (Path dir : List.of(repository.resolve("a"), repository.resolve("b"))) {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    }
    writer = Files.createDirectories(tmp.resolve("bin")).resolve("writer");
    // The slow run writes after a pause long enough for the quick one to run inside it.
    Files.writeString(writer, "#!/bin/sh\n[ \"$1\" = a ] && sleep 1\necho \"$1\" > \"$1/out\"\n");
    Files.setPosixFilePermissions(writer, PosixFilePermissions.fromString("rwxr-xr-x"));
    writer = writer.toRealPath();
  }

  private CommandKernel kernel(ExecutionBackend backend, String scope) {
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .network(backend.id().equals("process") ? NetworkMode.HOST : NetworkMode.NONE)
        .projectWrites(ProjectWriteMode.SCOPED)
        .writeScopes(List.of(scope + "/**"))
        .executable(ExecutableRule.atPath("writer", writer).exact(scope).build())
        .build();
    return CommandKernel.builder(ExecutionPolicies.of(policy)).discoverBackends(false).backend(backend)
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin")).build();
  }

  private void bothRunsSeeOnlyTheirOwnWrites(ExecutionBackend backend) {
    CommandKernel slow = kernel(backend, "a");
    CommandKernel quick = kernel(backend, "b");
    CompletableFuture<ExecutionResult> first = CompletableFuture.supplyAsync(() -> slow.execute(request("a", backend)));
    CompletableFuture<ExecutionResult> second = CompletableFuture.supplyAsync(() -> quick.execute(request("b", backend)));

    for (ExecutionResult result : List.of(first.join(), second.join())) {
      assertThat(result.status()).as(result.stderr().text()).isEqualTo(ExecutionStatus.COMPLETED);
      assertThat(result.exitCode()).as(result.stderr().text()).hasValue(0);
      assertThat(result.attestation().violations()).as("violations of " + result.argv()).isEmpty();
    }
    assertThat(repository.resolve("a/out")).hasContent("a");
    assertThat(repository.resolve("b/out")).hasContent("b");
  }

  private ExecutionRequest request(String scope, ExecutionBackend backend) {
    return ExecutionRequest.argv(writer.toString(), scope).repository(repository).workingDirectory(repository)
        .backend(backend.id()).build();
  }

  @Test
  void concurrentRunsOnTheProcessBackendAreEachAuditedAlone() {
    bothRunsSeeOnlyTheirOwnWrites(PROCESS.backend());
  }

  @Test
  void concurrentRunsUnderBwrapAreEachAuditedAlone() {
    bothRunsSeeOnlyTheirOwnWrites(BWRAP.backend());
  }
}
