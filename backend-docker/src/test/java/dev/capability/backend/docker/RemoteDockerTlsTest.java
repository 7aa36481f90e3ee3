package dev.capability.backend.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.docker.internal.DockerBackend;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The backend against the second dockerd, reached over TCP with TLS client verification: what it
 * advertises and says about the endpoint, a command run with nothing of this host bound, and the
 * connections it must refuse.
 */
class RemoteDockerTlsTest {

  @Test
  void overTlsTheBackendShipsTheWorkspaceAndSaysTheDaemonIsRemote() {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();
    try (ExecutionBackend backend = DockerBackend.create(daemon.config())) {
      assertThat(backend.capabilities())
          .contains(IsolationCapability.REMOTE_WORKSPACE, IsolationCapability.READ_ONLY_ROOT)
          .doesNotContain(IsolationCapability.FILTERED_EGRESS, IsolationCapability.WRITE_BUDGET);
      assertThat(backend.diagnostics().get("daemon"))
          .contains(daemon.host().toString())
          .contains("remote, TLS");
      assertThat(backend.diagnostics().get("summary")).contains("remote, TLS").contains("shipped");
      assertThat(backend.diagnostics().get("FILTERED_EGRESS")).contains("remote daemon");
      assertThat(backend.diagnostics().get("image"))
          .startsWith(SecondDockerDaemon.TEST_IMAGE + " sha256:")
          .endsWith(" (named by docker.image)");
    }
  }

  @Test
  void aCommandRunsAsItsPinnedBytesWithNothingOfThisHostBound() throws Exception {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();
    try (ExecutionBackend backend = DockerBackend.create(daemon.config())) {
      LaunchResult result =
          backend.launch(
              LaunchSpec.builder(pin(Path.of("/usr/bin/cat")))
                  .arguments(List.of("/proc/self/mountinfo"))
                  .environment(Map.of())
                  .workingDirectory(Path.of("/"))
                  .timeout(Duration.ofSeconds(60))
                  .build());

      assertThat(result.exitCode()).hasValue(0);
      String dataRoot = daemon.directory().resolve("data") + "/";
      List<String> diskMounts =
          result.stdout().text().lines().filter(line -> line.contains(" - ext4 ")).toList();
      // Every mount from a disk is the daemon's own: its files for /etc/hosts and the like, and
      // the run's volume; no directory of this host outside the daemon's data root.
      assertThat(diskMounts)
          .isNotEmpty()
          .allSatisfy(line -> assertThat(line.split(" ")[3]).startsWith(dataRoot));
      assertThat(diskMounts).anySatisfy(line -> assertThat(line).contains(" /opt/capability/run "));
    }
  }

  @Test
  void anImageTheDaemonDoesNotHoldFailsClosedNamingItWhereItWasNamedAndHowToBuildIt() {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();
    String missing = "capability/no-such-image:" + ProcessHandle.current().pid();
    Map<String, String> settings = new LinkedHashMap<>(daemon.connection().settings());
    settings.put("docker.image", missing);

    assertThatThrownBy(() -> DockerBackend.create(new BackendConfig(settings)))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining(
            "image " + missing + " (named by docker.image) is not present on the docker daemon at " + daemon.host())
        .hasMessageContaining("never pulls unless docker.allow-pull=true")
        .hasMessageContaining("build it there FROM the runtime image " + LocalRuntimeImage.defaultTag());
  }

  @Test
  void aClientCertificateFromAnotherCaIsRefusedByTheDaemon() {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();
    Map<String, String> settings = new LinkedHashMap<>(daemon.config().settings());
    settings.put("docker.cert-path", daemon.foreignClientCertificates().toString());

    assertThatThrownBy(() -> DockerBackend.create(new BackendConfig(settings)))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining(daemon.host().toString())
        .hasMessageContaining("the TLS connection failed with the docker daemon at " + daemon.host())
        .hasMessageNotContaining("no docker daemon reachable")
        .hasMessageContaining(daemon.foreignClientCertificates().resolve("cert.pem").toString());
  }

  @Test
  void theImageCommandsPathBuiltTheRuntimeImageOnTheRemoteDaemonThroughTheEnvironment() throws Exception {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();

    try (var client = daemon.client()) {
      assertThat(client.inspectImageCmd(LocalRuntimeImage.defaultTag()).exec().getId())
          .isEqualTo(daemon.runtimeImage());
    }
    // The same recipe through the settings finds it up to date and builds nothing.
    assertThat(LocalRuntimeImage.ensure(LocalRuntimeImage.defaultTag(), daemon.config(), step -> {
          throw new AssertionError("rebuilt: " + step);
        }))
        .isEqualTo(daemon.runtimeImage());
  }

  @Test
  void theImageCommandsPathRefusesPlainTcpAndAForeignCertificateThroughTheEnvironment() throws Exception {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();

    SecondDockerDaemon.ImageCommandRun plain =
        SecondDockerDaemon.runImageCommand(Map.of("DOCKER_HOST", daemon.host().toString()), daemon.directory());
    SecondDockerDaemon.ImageCommandRun foreign =
        SecondDockerDaemon.runImageCommand(
            Map.of(
                "DOCKER_HOST", daemon.host().toString(),
                "DOCKER_TLS_VERIFY", "1",
                "DOCKER_CERT_PATH", daemon.foreignClientCertificates().toString()),
            daemon.directory());

    assertThat(plain.status()).isNotZero();
    assertThat(plain.stderr()).contains("refusing plain TCP").contains("docker.insecure-plain-tcp-gives-the-network-root");
    assertThat(foreign.status()).isNotZero();
    assertThat(foreign.stdout()).isEmpty();
    assertThat(foreign.stderr())
        .contains("the TLS connection failed with the docker daemon at " + daemon.host())
        .contains(daemon.foreignClientCertificates().resolve("cert.pem").toString());
  }

  private static PinnedExecutable pin(Path path) throws Exception {
    Path real = path.toRealPath();
    return new PinnedExecutable(
        real, Sha256.hex(Files.readAllBytes(real)), real.toString(), PinnedExecutable.Pinning.PROC_FD);
  }
}
