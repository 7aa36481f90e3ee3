package dev.capability.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
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
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Executables the agent could have planted, found on {@code PATH} outside the repository, under
 * real bwrap: a hard link to a script inside the repository, and another user's file in a
 * world-writable directory. Both are refused before launch; an ordinary copy of the same script
 * runs, so the refusal is about the file's identity, not its content.
 */
class ExecutableIdentityInSandboxTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final String PAYLOAD = "#!/bin/sh\necho planted\n";

  @TempDir Path tmp;
  private Path repository;
  private Path bin;

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @BeforeEach
  void directories() throws IOException {
    Files.setAttribute(tmp, "unix:mode", 0755);
    repository = Files.createDirectory(tmp.resolve("repository")).toRealPath();
    bin = Files.createDirectory(tmp.resolve("bin")).toRealPath();
  }

  @Test
  void aHardLinkOnThePathToARepositoryScriptIsRefusedUnderBwrap() throws IOException {
    ExecutionBackend bwrap = BWRAP.backend();
    Path planted = executable(Files.createDirectory(repository.resolve("scripts")).resolve("build"));
    Files.createLink(bin.resolve("build"), planted);

    ExecutionResult result = kernel(bwrap).execute(request());

    assertThat(result.status()).isEqualTo(ExecutionStatus.DENIED);
    assertThat(result.decision().code()).isEqualTo("REPOSITORY_EXECUTABLE_LINK");
    assertThat(result.stdout().text()).isEmpty();
    assertThat(result.attestation().backend()).as("refused before a backend was chosen").isNull();
  }

  @Test
  void aCopyOfTheSameScriptRunsUnderBwrap() throws IOException {
    ExecutionBackend bwrap = BWRAP.backend();
    executable(Files.createDirectory(repository.resolve("scripts")).resolve("build"));
    executable(bin.resolve("build"));

    ExecutionResult result = kernel(bwrap).execute(request());

    assertThat(result.status()).as(result.stderr().text()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(result.stdout().text()).isEqualTo("planted\n");
  }

  @Test
  void anotherUsersScriptInAWorldWritablePathDirectoryIsRefusedUnderBwrap() throws IOException {
    assumeTrue(Ownership.currentUid() == 0, "only root can make a file another user owns (ExecutableTrustTest covers the rule for any"
        + " user); this test runs as uid " + Ownership.currentUid());
    ExecutionBackend bwrap = BWRAP.backend();
    Files.setAttribute(bin, "unix:mode", 01777);
    Path planted = executable(bin.resolve("build"));
    Files.setAttribute(planted, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);

    ExecutionResult result = kernel(bwrap).execute(request());

    assertThat(result.status()).isEqualTo(ExecutionStatus.DENIED);
    assertThat(result.decision().code()).isEqualTo("EXECUTABLE_WRITABLE_BY_OTHERS");
    assertThat(result.stdout().text()).isEmpty();
  }

  /** A kernel on the gate's backend; never closed, since closing a kernel closes its backends, which the gate closes. */
  private CommandKernel kernel(ExecutionBackend backend) {
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .inheritEnvironment("PATH")
        .executable(ExecutableRule.named("build").exact().build())
        .build();
    return CommandKernel.builder(ExecutionPolicies.of(policy)).discoverBackends(false).backend(backend)
        .hostEnvironment(Map.of("PATH", bin + ":/usr/bin:/bin")).build();
  }

  private ExecutionRequest request() {
    return ExecutionRequest.argv("build").repository(repository).build();
  }

  private static Path executable(Path file) throws IOException {
    Files.writeString(file, PAYLOAD);
    Files.setAttribute(file, "unix:mode", 0755);
    return file;
  }
}
