package dev.capability.backend.docker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The PID and memory limits hold against a command that tries to exceed them. */
class DockerLimitsTest {
  private static final BackendGate GATE;

  static {
    // Built by the shared gate's class first, so this gate's probe finds the image.
    DockerGate.GATE.getClass();
    GATE =
        BackendGate.of(
            new DockerBackendProvider(),
            new BackendConfig(Map.of("docker.limit.pids", "32", "docker.limit.memory", "64M")));
  }

  @AfterAll
  static void closeBackend() {
    GATE.close();
  }

  private static LaunchResult perl(String program) throws IOException {
    Path perl = Path.of("/usr/bin/perl").toRealPath();
    PinnedExecutable pinned =
        new PinnedExecutable(
            perl, Sha256.hex(Files.readAllBytes(perl)), perl.toString(), PinnedExecutable.Pinning.PROC_FD);
    ExecutionBackend backend = GATE.backend();
    return backend.launch(
        LaunchSpec.builder(pinned)
            .arguments(List.of("-e", program))
            .workingDirectory(Path.of("/usr"))
            .timeout(Duration.ofSeconds(120))
            .build());
  }

  @Test
  void advertisesTheConfiguredLimits() {
    assertThat(GATE.backend().capabilities())
        .contains(IsolationCapability.PID_LIMIT, IsolationCapability.MEMORY_LIMIT);
  }

  @Test
  void aForkBombStopsAtThePidLimit() throws IOException {
    LaunchResult result =
        perl(
            "$| = 1; my $n = 0; for (1..100) { my $p = fork(); last unless defined $p;"
                + " if ($p == 0) { sleep 30; exit 0 } $n++ } print $n; kill 'KILL', -$$;"
                + " exit 0");

    assertThat(Integer.parseInt(result.stdout().text().strip()))
        .as("children forked under a limit of 32 processes")
        .isLessThan(32);
  }

  @Test
  void aMemoryHogIsKilledAtTheMemoryLimitAndReportedAsSuch() throws IOException {
    LaunchResult result = perl("my $x = 'x' x (512 * 1024 * 1024); print length($x); exit 0");

    assertThat(result.exitCode()).hasValue(137);
    assertThat(result.stdout().text()).isEmpty();
    assertThat(result.memoryLimitHit()).as("memoryLimitHit").isTrue();
    assertThat(result.termination()).isEqualTo("oom-kill");
    assertThat(result.timedOut()).isFalse();
  }

  @Test
  void aCommandThatKillsItselfWithSignalNineIsNotAMemoryKill() throws IOException {
    LaunchResult result = perl("kill 'KILL', $$");

    assertThat(result.exitCode()).hasValue(137);
    assertThat(result.memoryLimitHit()).as("memoryLimitHit").isFalse();
    assertThat(result.termination()).isEqualTo("none");
  }
}
