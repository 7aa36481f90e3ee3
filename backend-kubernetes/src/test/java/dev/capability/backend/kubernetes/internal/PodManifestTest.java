package dev.capability.backend.kubernetes.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.LaunchFailedException;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class PodManifestTest {
  private static final KubernetesSettings SETTINGS =
      KubernetesSettings.from(
          new BackendConfig(
              Map.of(
                  "kubernetes.image", "registry.example/sandbox@sha256:abc",
                  "kubernetes.limit.memory", "256M",
                  "kubernetes.limit.cpus", "0.5",
                  "kubernetes.limit.ephemeral-storage", "1G",
                  "kubernetes.workspace-size", "300M",
                  "kubernetes.tmp-size", "16M",
                  "kubernetes.start-timeout", "30",
                  "kubernetes.transfer-timeout", "40")));
  private static final Map<String, String> LABELS = Map.of(Labels.RUN, "run-1", Labels.SDK, "1");

  private static Pod pod() {
    return new PodManifest(SETTINGS)
        .pod(
            "sandboxes",
            "run-1",
            LABELS,
            MockCluster.spec()
                .repository(Path.of("/home/dev/repo"))
                .workingDirectory(Path.of("/home/dev/repo/src"))
                .timeout(Duration.ofMillis(90_500))
                .terminationGrace(Duration.ofSeconds(2))
                .build());
  }

  @Test
  void thePodKeepsTheRestrictedProfileForThePodAndItsContainer() {
    Pod pod = pod();
    assertThat(pod.getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSpec().getSecurityContext().getRunAsUser()).isEqualTo(65534L);
    assertThat(pod.getSpec().getSecurityContext().getRunAsGroup()).isEqualTo(65534L);
    assertThat(pod.getSpec().getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(pod.getSpec().getContainers()).hasSize(1);
    assertThat(pod.getSpec().getInitContainers()).isEmpty();
    SecurityContext container = pod.getSpec().getContainers().get(0).getSecurityContext();
    assertThat(container.getRunAsNonRoot()).isTrue();
    assertThat(container.getRunAsUser()).isEqualTo(65534L);
    assertThat(container.getRunAsGroup()).isEqualTo(65534L);
    assertThat(container.getReadOnlyRootFilesystem()).isTrue();
    assertThat(container.getAllowPrivilegeEscalation()).isFalse();
    assertThat(container.getPrivileged()).isFalse();
    assertThat(container.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(container.getCapabilities().getAdd()).isEmpty();
    assertThat(container.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
  }

  @Test
  void thePodSharesNothingOfTheNodeAndGetsNoServiceAccountTokenOrServiceLinks() {
    Pod pod = pod();
    assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
    assertThat(pod.getSpec().getEnableServiceLinks()).isFalse();
    assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
    assertThat(pod.getSpec().getHostNetwork()).isFalse();
    assertThat(pod.getSpec().getHostPID()).isFalse();
    assertThat(pod.getSpec().getHostIPC()).isFalse();
    assertThat(pod.getSpec().getShareProcessNamespace()).isFalse();
    assertThat(pod.getSpec().getVolumes()).allSatisfy(v -> {
      assertThat(v.getHostPath()).isNull();
      assertThat(v.getEmptyDir()).isNotNull();
    });
  }

  @Test
  void theContainerHasCpuMemoryAndEphemeralStorageLimitsAndRequestsEqualToThem() {
    Container container = pod().getSpec().getContainers().get(0);
    Map<String, Quantity> limits = container.getResources().getLimits();
    assertThat(limits.get("cpu")).isEqualTo(new Quantity("500m"));
    assertThat(Quantity.getAmountInBytes(limits.get("memory")).longValueExact()).isEqualTo(256L << 20);
    assertThat(Quantity.getAmountInBytes(limits.get("ephemeral-storage")).longValueExact()).isEqualTo(1L << 30);
    assertThat(container.getResources().getRequests()).isEqualTo(limits);
  }

  @Test
  void theDeadlineCoversTheTimeoutGraceStartAndBothTransfersRoundedUp() {
    Pod pod = pod();
    // 90.5 s + 2 s + 30 s + 2 * 40 s = 202.5 s, rounded up.
    assertThat(pod.getSpec().getActiveDeadlineSeconds()).isEqualTo(203L);
    assertThat(pod.getSpec().getContainers().get(0).getCommand()).containsExactly("sleep", "203");
  }

  @Test
  void theWorkspaceIsASizeLimitedEmptyDirAtTheRepositorysPathAndTmpIsMemoryBacked() {
    Pod pod = pod();
    Map<String, Volume> volumes = pod.getSpec().getVolumes().stream().collect(Collectors.toMap(Volume::getName, v -> v));
    Map<String, String> mounts =
        pod.getSpec().getContainers().get(0).getVolumeMounts().stream()
            .collect(Collectors.toMap(VolumeMount::getName, VolumeMount::getMountPath));
    assertThat(mounts)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("workspace", "/home/dev/repo", "tmp", "/tmp", "executable", PodManifest.EXECUTABLE_DIRECTORY));
    assertThat(Quantity.getAmountInBytes(volumes.get("workspace").getEmptyDir().getSizeLimit()).longValueExact())
        .isEqualTo(300L << 20);
    assertThat(volumes.get("tmp").getEmptyDir().getMedium()).isEqualTo("Memory");
    assertThat(Quantity.getAmountInBytes(volumes.get("tmp").getEmptyDir().getSizeLimit()).longValueExact())
        .isEqualTo(16L << 20);
    assertThat(pod.getSpec().getContainers().get(0).getWorkingDir()).isEqualTo("/home/dev/repo/src");
    assertThat(pod.getSpec().getContainers().get(0).getImage()).isEqualTo("registry.example/sandbox@sha256:abc");
  }

  @Test
  void aRunWithoutNetworkGetsAPolicyDenyingAllIngressAndEgressOfExactlyItsPod() {
    NetworkPolicy policy = new PodManifest(SETTINGS).denyAll("sandboxes", "run-1", LABELS, NetworkMode.NONE).orElseThrow();
    assertThat(policy.getSpec().getPodSelector().getMatchLabels()).isEqualTo(Map.of(Labels.RUN, "run-1"));
    assertThat(policy.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
    assertThat(policy.getSpec().getIngress()).isEmpty();
    assertThat(policy.getSpec().getEgress()).isEmpty();
    assertThat(policy.getMetadata().getLabels()).isEqualTo(LABELS);
    assertThat(pod().getMetadata().getLabels()).containsEntry(Labels.RUN, "run-1");
  }

  @Test
  void aRunWithTheNetworkGetsNoPolicy() {
    assertThat(new PodManifest(SETTINGS).denyAll("sandboxes", "run-1", LABELS, NetworkMode.HOST)).isEmpty();
  }

  @Test
  void aRepositoryAtTheRootOrOverTheBackendsOwnDirectoriesIsRefused() {
    for (String path : new String[] {"/", "/tmp", PodManifest.EXECUTABLE_DIRECTORY, PodManifest.EXECUTABLE_DIRECTORY + "/x"}) {
      assertThatThrownBy(() -> PodManifest.workspacePath(Path.of(path)))
          .as(path)
          .isInstanceOf(LaunchFailedException.class)
          .hasMessageContaining("cannot ship the repository");
    }
    assertThat(PodManifest.workspacePath(Path.of("/tmp/work/repo"))).isEqualTo("/tmp/work/repo");
  }
}
