package dev.capability.backend.kubernetes.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A run's lifecycle against fabric8's mock API server in CRUD mode, which stores objects and runs
 * no pods: the test plays the kubelet by setting the pod's status.
 */
class PodRunTest {
  private static MockCluster cluster;
  private static ExecutorService launcher;

  @BeforeAll
  static void start() {
    cluster = new MockCluster();
    launcher = Executors.newSingleThreadExecutor();
  }

  @AfterAll
  static void stop() {
    launcher.shutdownNow();
    cluster.close();
  }

  @AfterEach
  void nothingIsLeft() {
    assertThat(cluster.pods()).as("pods left in the namespace").isEmpty();
    assertThat(policies()).as("network policies left in the namespace").isEmpty();
  }

  private static List<NetworkPolicy> policies() {
    return cluster.client().network().v1().networkPolicies().inNamespace(MockCluster.NAMESPACE).list().getItems();
  }

  private static PodRun run(Map<String, String> settings) {
    return new PodRun(
        cluster.client(), MockCluster.NAMESPACE, KubernetesSettings.from(new BackendConfig(settings)), HostJvm.current());
  }

  /** Waits until the launch created its pod (or ended), and returns it as the server stores it. */
  private static Pod awaitPod(Future<?> launch) throws InterruptedException {
    while (!launch.isDone()) {
      List<Pod> pods = cluster.pods();
      if (!pods.isEmpty()) {
        return pods.get(0);
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the launch ended without creating a pod");
  }

  private static Throwable failure(Future<LaunchResult> launch) throws InterruptedException {
    try {
      launch.get();
    } catch (ExecutionException e) {
      return e.getCause();
    }
    throw new AssertionError("the launch did not fail");
  }

  @Test
  void thePodAndItsDenyAllPolicyReachTheClusterAndAreDeletedWhenThePodFails() throws Exception {
    LaunchSpec spec = MockCluster.spec().timeout(Duration.ofSeconds(30)).terminationGrace(Duration.ofSeconds(1)).build();
    Future<LaunchResult> launch = launcher.submit(() -> run(Map.of()).run(spec));
    Pod pod = awaitPod(launch);
    List<NetworkPolicy> stored = policies();
    assertThat(stored).hasSize(1);
    NetworkPolicy policy = stored.get(0);
    String runId = pod.getMetadata().getLabels().get(Labels.RUN);
    assertThat(policy.getSpec().getPodSelector().getMatchLabels()).isEqualTo(Map.of(Labels.RUN, runId));
    assertThat(policy.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
    assertThat(policy.getSpec().getIngress()).isNullOrEmpty();
    assertThat(policy.getSpec().getEgress()).isNullOrEmpty();
    HostJvm self = HostJvm.current();
    assertThat(pod.getMetadata().getLabels())
        .containsEntry(Labels.SDK, "1")
        .containsEntry(Labels.HOST, self.host())
        .containsEntry(Labels.JVM, self.jvmLabel());
    assertThat(pod.getSpec().getContainers().get(0).getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
    // 30 s + 1 s + the default start (120 s) and twice the transfer timeout (300 s).
    assertThat(pod.getSpec().getActiveDeadlineSeconds()).isEqualTo(30 + 1 + 120 + 600L);

    cluster.markFailed(pod, "ErrImagePull");

    assertThat(failure(launch))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("ended before it ran anything")
        .hasMessageContaining("ErrImagePull");
  }

  @Test
  void aPodThatDoesNotStartWithinTheStartTimeoutIsDeletedWithItsPolicy() throws Exception {
    LaunchSpec spec = MockCluster.spec().build();
    Future<LaunchResult> launch = launcher.submit(() -> run(Map.of("kubernetes.start-timeout", "1")).run(spec));
    awaitPod(launch);

    assertThat(failure(launch))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("did not start within 1 s (kubernetes.start-timeout)")
        .hasMessageContaining("no status yet");
  }

  @Test
  void aRunningPodWhoseExecTheClusterRefusesIsDeleted() throws Exception {
    LaunchSpec spec = MockCluster.spec().build();
    Future<LaunchResult> launch = launcher.submit(() -> run(Map.of()).run(spec));
    Pod pod = awaitPod(launch);
    cluster.markRunning(pod);

    assertThat(failure(launch))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("the cluster refused to exec tar in pod " + pod.getMetadata().getName());
  }

  @Test
  void aRunWithTheNetworkCreatesNoPolicy() throws Exception {
    LaunchSpec spec = MockCluster.spec().network(NetworkMode.HOST).build();
    Future<LaunchResult> launch = launcher.submit(() -> run(Map.of()).run(spec));
    Pod pod = awaitPod(launch);
    assertThat(policies()).isEmpty();
    cluster.markFailed(pod, "Evicted");
    assertThat(failure(launch)).isInstanceOf(LaunchFailedException.class);
  }

  @Test
  void filteredNetworkIsRefusedBeforeAnythingIsCreated() {
    LaunchSpec spec =
        MockCluster.spec().network(NetworkMode.FILTERED).egressSocket(Path.of("/run/egress.sock")).build();
    assertThatThrownBy(() -> run(Map.of()).run(spec))
        .isInstanceOf(NetworkFilterUnavailableException.class)
        .hasMessageContaining("no pod can reach it");
  }

  @Test
  void aRepositoryThatIsNotShippedIsRefusedBeforeAnythingIsCreated() {
    LaunchSpec spec = MockCluster.spec().repository(Path.of("/home/dev/repo")).build();
    assertThatThrownBy(() -> run(Map.of()).run(spec))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("cannot bind the repository /home/dev/repo");
  }
}
