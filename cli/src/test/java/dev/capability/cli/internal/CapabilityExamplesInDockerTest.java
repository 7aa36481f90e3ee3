package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.docker.DockerBackendProvider;
import dev.capability.backend.docker.LocalRuntimeImage;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example capabilities run through the CLI in the child JVM inside a hardened Docker container. */
class CapabilityExamplesInDockerTest {
  private static final String EXAMPLES = "../examples/capabilities/";
  private static BackendGate docker;
  @TempDir Path repo;

  @BeforeAll
  static void image() {
    try {
      LocalRuntimeImage.ensure(LocalRuntimeImage.defaultTag());
    } catch (BackendUnavailableException e) {
      // The gate's probe says what is missing: the tests skip, or fail when backends are required.
    }
    docker = BackendGate.of(new DockerBackendProvider(), BackendConfig.defaults());
  }

  @AfterAll
  static void close() {
    docker.close();
  }

  @BeforeEach
  void repository() throws IOException {
    docker.backend();
    Files.setPosixFilePermissions(repo, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.createDirectories(repo.resolve("notes"));
    Files.setPosixFilePermissions(repo.resolve("notes"), PosixFilePermissions.fromString("rwxrwxrwx"));
    Files.createDirectories(repo.resolve("examples/data"));
    Files.writeString(repo.resolve("examples/data/a.txt"), "one two two\n");
  }

  @Test
  void helloRunsUnderDenyAllInAContainer() {
    CliRunner.Outcome outcome =
        CliRunner.run("run", EXAMPLES + "hello", "--backend", "docker", "--repo", repo.toString(), "--input", "{\"name\":\"Ada\"}", "--json");

    assertThat(outcome.exitCode()).as(outcome.out() + outcome.err()).isZero();
    assertThat(outcome.out()).contains("Hello, Ada!").contains("\"boundaryApplied\":true").contains("\"backend\":{\"id\":\"docker\"");
  }

  @Test
  void notesWritesOnlyThroughItsApprovedMountInAContainer() {
    CliRunner.Outcome outcome =
        CliRunner.run("run", EXAMPLES + "notes", "--backend", "docker", "--repo", repo.toString(), "--policy", "permissive",
            "--approve", "filesystem.write=notes", "--input", "{\"title\":\"boxed\",\"text\":\"from a container\"}", "--json");

    assertThat(outcome.exitCode()).as(outcome.out() + outcome.err()).isZero();
    assertThat(repo.resolve("notes/boxed.md")).hasContent("from a container");
    assertThat(outcome.out()).contains("\"usedEffects\":[{\"kind\":\"filesystem.write\",\"scope\":\"notes\"}]");
  }

  @Test
  void wordCountReadsItsGrantedDirectoryInAContainer() {
    CliRunner.Outcome outcome =
        CliRunner.run("run", EXAMPLES + "word-count", "--backend", "docker", "--repo", repo.toString(), "--policy", "permissive",
            "--input", "{\"top\":1}", "--json");

    assertThat(outcome.exitCode()).as(outcome.out() + outcome.err()).isZero();
    assertThat(outcome.out()).contains("\\\"words\\\":3").contains("\\\"word\\\":\\\"two\\\",\\\"count\\\":2");
  }
}
