package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.docker.LocalRuntimeImage;
import dev.capability.backend.tck.BackendGate;
import dev.capability.capability.runtime.CapabilityExecutors;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.core.BackendSelection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code plan} and {@code run} without {@code --backend} bind the backend the kernel's one
 * selection rule chooses (the same rule as {@code exec}), never a hard-coded one, and never the
 * unisolated {@code process} backend.
 */
class RunBackendChoiceTest {
  private static final String EXAMPLES = "../examples/capabilities/";
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static String expected;
  @TempDir Path repo;

  @BeforeAll
  static void choose() {
    try {
      // With Docker here, the strongest backend is Docker, which needs its runtime image.
      LocalRuntimeImage.ensure(LocalRuntimeImage.defaultTag());
    } catch (BackendUnavailableException e) {
      // Then Docker is unavailable and the rule chooses among the others.
    }
    BWRAP.backend();
    try (ExecutionBackend chosen =
        BackendSelection.select(
            RunBackendChoiceTest.class.getClassLoader(), BackendConfig.defaults(), CapabilityExecutors.CHILD_JVM_ISOLATION)) {
      expected = chosen.id();
    }
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @Test
  void planWithoutABackendBindsTheOneTheSelectionRuleChooses() throws IOException {
    Files.setPosixFilePermissions(repo, PosixFilePermissions.fromString("rwxr-xr-x"));

    CliRunner.Outcome plan =
        CliRunner.run("plan", EXAMPLES + "hello", "--repo", repo.toString(), "--input", "{\"name\":\"Ada\"}", "--json");

    assertThat(plan.exitCode()).as(plan.out() + plan.err()).isZero();
    assertThat(expected).isNotEqualTo("process");
    assertThat(new ObjectMapper().readTree(plan.out()).at("/plan/executor/advertises/backend").asText()).isEqualTo(expected);
  }

  @Test
  void runWithoutABackendRunsUnderTheChosenOneAndAttestsIt() throws IOException {
    Files.setPosixFilePermissions(repo, PosixFilePermissions.fromString("rwxr-xr-x"));

    CliRunner.Outcome run =
        CliRunner.run("run", EXAMPLES + "hello", "--repo", repo.toString(), "--input", "{\"name\":\"Ada\"}", "--json");

    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    assertThat(run.out()).contains("Hello, Ada!").contains("\"backend\":{\"id\":\"" + expected + "\"");
  }
}
