package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.tck.BackendGate;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ImageCommandTest {

  @Test
  void buildsTheRuntimeImageOnTheRealDaemonAndASecondCallKeepsIt() {
    CliRunner.Outcome first = CliRunner.run("image", "--json");
    if (!"1".equals(System.getenv(BackendGate.REQUIRE_VARIABLE))) {
      Assumptions.assumeFalse(first.exitCode() == ExitCodes.CANNOT_EXECUTE, () -> "no Docker daemon here: " + first.out());
    }

    assertThat(first.exitCode()).as(first.out() + first.err()).isZero();
    assertThat(first.out()).containsPattern("\"id\":\"sha256:[0-9a-f]{64}\"").contains("\"tag\":\"capability/runtime:");
    CliRunner.Outcome second = CliRunner.run("image", "--json");
    assertThat(second.out()).as("the same inputs build the same image").isEqualTo(first.out());
    assertThat(second.err()).as("--json prints no progress").isEmpty();
  }

  @Test
  void aBuildNamesItsStepsOnStderrAndAnUpToDateImageIsConfirmedSilently() throws Exception {
    String tag = "capability/runtime-progress-test:" + ProcessHandle.current().pid();
    CliRunner.Outcome build = CliRunner.run("image", "--tag", tag);
    if (!"1".equals(System.getenv(BackendGate.REQUIRE_VARIABLE))) {
      Assumptions.assumeFalse(build.exitCode() == ExitCodes.CANNOT_EXECUTE, () -> "no Docker daemon here: " + build.err());
    }
    try {
      assertThat(build.exitCode()).as(build.err()).isZero();
      assertThat(build.err())
          .contains("capability: building the runtime image " + tag + " (not on the daemon yet)\n")
          .contains("capability: jlink: a Java runtime of java.base")
          .contains("capability: loading the image (");
      assertThat(build.out()).startsWith(tag + " sha256:");
      CliRunner.Outcome again = CliRunner.run("image", "--tag", tag);
      assertThat(again.err()).isEmpty();
    } finally {
      Process remove = new ProcessBuilder("docker", "image", "rm", tag).redirectErrorStream(true).start();
      remove.getInputStream().readAllBytes();
      remove.waitFor(60, TimeUnit.SECONDS);
    }
  }
}
