package dev.capability.backend.docker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.DockerClient;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The entrypoint that gives the command exactly its environment and tini as PID 1. */
class ContainerRunTest {
  private static final DockerClient CLIENT = DockerClients.fromEnvironment();
  private static final ContainerRun RUN =
      new ContainerRun(
          CLIENT,
          DockerSettings.defaults(),
          HostJvm.current(),
          "sha256:" + "0".repeat(64),
          ExecLimit.forStack(Optional.empty()),
          true,
          Optional.empty(),
          false);

  @AfterAll
  static void close() throws IOException {
    CLIENT.close();
  }

  private static LaunchSpec.Builder spec() {
    return LaunchSpec.builder(
            new PinnedExecutable(
                Path.of("/usr/bin/printf"), "0".repeat(64), "/proc/1/fd/3",
                PinnedExecutable.Pinning.PROC_FD))
        .workingDirectory(Path.of("/usr"));
  }

  @Test
  void everyContainerGetsTheProjectsSeccompProfileForItsNetwork() {
    ContainerRun withoutProfile =
        new ContainerRun(
            CLIENT,
            DockerSettings.defaults(),
            HostJvm.current(),
            "sha256:" + "0".repeat(64),
            ExecLimit.forStack(Optional.empty()),
            false,
            Optional.empty(),
            false);

    assertThat(RUN.securityOptions(spec().network(NetworkMode.NONE).build()))
        .containsExactly(
            "no-new-privileges", "seccomp=" + SeccompProfile.json(NetworkMode.NONE));
    assertThat(RUN.securityOptions(spec().network(NetworkMode.HOST).build()))
        .containsExactly(
            "no-new-privileges", "seccomp=" + SeccompProfile.json(NetworkMode.HOST));
    assertThat(withoutProfile.securityOptions(spec().build())).containsExactly("no-new-privileges");
  }

  @Test
  void withFilteredNetworkTiniStartsTheRelayWhichExecutesTheSameCommand() {
    List<String> argv =
        RUN.entrypoint(
            spec()
                .network(NetworkMode.FILTERED)
                .egressSocket(Path.of("/tmp/proxy.sock"))
                .arguments(List.of("--", "-i"))
                .build(),
            "/usr/bin/printf");

    assertThat(argv)
        .containsExactly(
            "/opt/capability/bin/ck-launch",
            "/opt/capability/bin/tini",
            "--",
            "/run/capability-egress/egress-relay",
            "/run/capability-egress/proxy.sock",
            "3128",
            "/usr/bin/printf",
            "/usr/bin/printf",
            "--",
            "-i");
  }

  @Test
  void theEntrypointStartsTiniWithTheCanonicalPathAndHoldsNoEnvironmentValue() {
    List<String> argv =
        RUN.entrypoint(
            spec()
                .environment(Map.of("TOKEN", "s3cr3t"))
                .arguments(List.of("--", "-i", "X=1"))
                .build(),
            "/usr/bin/printf");

    assertThat(argv)
        .containsExactly(
            "/opt/capability/bin/ck-launch",
            "/opt/capability/bin/tini",
            "--",
            "/usr/bin/printf",
            "--",
            "-i",
            "X=1");
  }

  @Test
  void theEnvironmentBlockIsItsLengthThenSortedNulEndedEntries() {
    byte[] block =
        ContainerRun.environmentBlock(Map.of("B", "2=two", "A", "line\nbreak", "-dash", ""));

    assertThat(new String(block, StandardCharsets.UTF_8))
        .isEqualTo("28\n-dash=\0A=line\nbreak\0B=2=two\0");
    assertThat(new String(ContainerRun.environmentBlock(Map.of()), StandardCharsets.UTF_8))
        .isEqualTo("0\n");
  }

  @Test
  void refusesAnEnvironmentNameWithAnEqualsSignOrAValueWithANulByte() {
    assertThatThrownBy(() -> ContainerRun.environmentBlock(Map.of("A=B", "1")))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("'='");
    assertThatThrownBy(() -> ContainerRun.environmentBlock(Map.of("A", "1\0")))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("NUL");
  }

  @Test
  void refusesANulByte() {
    assertThatThrownBy(() -> RUN.entrypoint(spec().arguments(List.of("a\0b")).build(), "/usr/bin/true"))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("NUL");
  }
}
