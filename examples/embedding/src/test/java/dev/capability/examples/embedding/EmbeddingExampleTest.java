package dev.capability.examples.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.backend.BackendConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example's own logic against a real git repository, in a real Bubblewrap sandbox. */
class EmbeddingExampleTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());

  @TempDir Path temp;
  private Path repository;

  @BeforeEach
  void createRepository() throws Exception {
    BWRAP.backend();
    // Run as root, the sandbox runs as nobody, which must be able to reach the repository.
    Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
    repository = Files.createDirectory(temp.resolve("repository")).toRealPath();
    git("init", "-q");
    Files.writeString(repository.resolve("hello.txt"), "hello\n");
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @Test
  void runsTheAllowedCommandInTheSandboxAndRefusesTheOther() throws IOException {
    Path policyFile = EmbeddingExample.writePolicy(Files.createDirectory(temp.resolve("policy")));

    List<ExecutionResult> results = EmbeddingExample.run(policyFile, repository);

    ExecutionResult status = results.get(0);
    assertThat(status.status()).as(status.failureMessage()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(status.exitCode()).hasValue(0);
    assertThat(status.stdout().text()).isEqualTo("?? hello.txt\n");
    assertThat(status.attestation().backend().id()).isEqualTo("bwrap");
    assertThat(EmbeddingExample.describe(status)).isEqualTo("git status --short: exit 0 on backend bwrap\n?? hello.txt\n");

    ExecutionResult log = results.get(1);
    assertThat(log.status()).isEqualTo(ExecutionStatus.DENIED);
    assertThat(log.decision().code()).isEqualTo("SUBCOMMAND_NOT_ALLOWED");
    assertThat(EmbeddingExample.describe(log)).startsWith("git log: " + log.decision().code() + ": ");
  }

  private void git(String... arguments) throws Exception {
    Process process = new ProcessBuilder(concat("git", arguments)).directory(repository.toFile()).redirectErrorStream(true).start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(1, TimeUnit.MINUTES)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
  }

  private static List<String> concat(String first, String... rest) {
    return Stream.concat(Stream.of(first), Stream.of(rest)).toList();
  }
}
