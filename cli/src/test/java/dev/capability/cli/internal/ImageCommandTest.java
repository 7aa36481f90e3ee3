package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.tck.BackendGate;
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
  }
}
