package dev.capability.backend.kubernetes.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.kubernetes.internal.NetworkPolicyProbe.Outcome;
import dev.capability.backend.kubernetes.internal.NetworkPolicyProbe.Verdict;
import dev.capability.kernel.api.backend.BackendConfig;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The network policy probe against fabric8's mock API server in CRUD mode, which stores the pods
 * and the policy and runs nothing: the test plays the kubelet, writing each pod's end (phase and
 * its container's exit code) into the store, as the kubelet would once the pod's connection
 * attempt ended. What the mock cannot show, a network plugin enforcing the policy or not, is what
 * those exit codes stand for.
 */
class NetworkPolicyProbeTest {
  private static final AtomicInteger IDS = new AtomicInteger();
  private static MockCluster cluster;
  private static ExecutorService prober;

  @BeforeAll
  static void start() {
    cluster = new MockCluster();
    prober = Executors.newSingleThreadExecutor();
  }

  @AfterAll
  static void stop() {
    prober.shutdownNow();
    cluster.close();
  }

  @AfterEach
  void theProbesPodsAndPolicyAreDeleted() {
    assertThat(cluster.pods()).as("pods left").isEmpty();
    assertThat(policies()).as("network policies left").isEmpty();
  }

  private static List<NetworkPolicy> policies() {
    return cluster.client().network().v1().networkPolicies().inNamespace(MockCluster.NAMESPACE).list().getItems();
  }

  /** The probe's run ids, control first, then the pod under the policy. */
  private record Ids(String control, String denied) {
    static Ids fresh() {
      return new Ids(new UUID(1, IDS.incrementAndGet()).toString(), new UUID(2, IDS.incrementAndGet()).toString());
    }

    Supplier<String> supplier() {
      List<String> order = List.of(control, denied);
      AtomicInteger next = new AtomicInteger();
      return () -> order.get(next.getAndIncrement());
    }
  }

  /** Starts the probe and waits until it created both pods. */
  private static Future<Outcome> startProbe(Ids ids) throws InterruptedException {
    NetworkPolicyProbe probe =
        new NetworkPolicyProbe(
            cluster.client(), MockCluster.NAMESPACE, KubernetesSettings.from(BackendConfig.defaults()), HostJvm.current(), ids.supplier());
    Future<Outcome> outcome = prober.submit(probe::probe);
    while (cluster.pods().size() < 2 && !outcome.isDone()) {
      Thread.sleep(20);
    }
    return outcome;
  }

  /** Runs the probe, playing the kubelet: the control pod ends with {@code control}, the other with {@code denied}. */
  private static Outcome probe(int control, int denied) throws Exception {
    Ids ids = Ids.fresh();
    Future<Outcome> outcome = startProbe(ids);
    cluster.markTerminated(cluster.pod(PodManifest.name(ids.denied())), denied);
    cluster.markTerminated(cluster.pod(PodManifest.name(ids.control())), control);
    return outcome.get();
  }

  @Test
  void theProbeRunsARestrictedControlPodAndAPodUnderADenyAllPolicyThatSelectsOnlyIt() throws Exception {
    Ids ids = Ids.fresh();
    Future<Outcome> outcome = startProbe(ids);
    Pod control = cluster.pod(PodManifest.name(ids.control()));
    Pod denied = cluster.pod(PodManifest.name(ids.denied()));
    List<NetworkPolicy> policies = policies();

    for (Pod pod : List.of(control, denied)) {
      assertThat(pod.getMetadata().getLabels())
          .containsEntry(Labels.SDK, "1")
          .containsEntry(Labels.HOST, HostJvm.current().host())
          .containsEntry(Labels.JVM, HostJvm.current().jvmLabel())
          .containsEntry(Labels.PROBE, Labels.NETWORK_POLICY_PROBE);
      assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
      assertThat(pod.getSpec().getHostNetwork()).isFalse();
      assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
      assertThat(pod.getSpec().getActiveDeadlineSeconds()).isPositive();
      assertThat(pod.getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
      assertThat(pod.getSpec().getSecurityContext().getRunAsUser()).isEqualTo(65534L);
      assertThat(pod.getSpec().getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
      Container container = pod.getSpec().getContainers().get(0);
      assertThat(pod.getSpec().getContainers()).hasSize(1);
      assertThat(container.getImage()).isEqualTo(KubernetesSettings.DEFAULT_IMAGE);
      assertThat(container.getCommand())
          .containsExactly(
              "timeout", "13", "bash", "-c", "sleep 3; exec 3<>\"/dev/tcp/$KUBERNETES_SERVICE_HOST/$KUBERNETES_SERVICE_PORT\"");
      assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
      assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
      assertThat(container.getSecurityContext().getPrivileged()).isFalse();
      assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
      assertThat(container.getSecurityContext().getRunAsUser()).isEqualTo(65534L);
      assertThat(pod.getSpec().getVolumes()).extracting(v -> v.getName()).containsExactly("tmp");
    }
    assertThat(control.getMetadata().getLabels()).containsEntry(Labels.RUN, ids.control());
    assertThat(denied.getMetadata().getLabels()).containsEntry(Labels.RUN, ids.denied());
    assertThat(policies).hasSize(1);
    NetworkPolicy policy = policies.get(0);
    assertThat(policy.getMetadata().getName()).isEqualTo(PodManifest.name(ids.denied()));
    assertThat(policy.getMetadata().getLabels()).containsEntry(Labels.PROBE, Labels.NETWORK_POLICY_PROBE);
    assertThat(policy.getSpec().getPodSelector().getMatchLabels()).isEqualTo(Map.of(Labels.RUN, ids.denied()));
    assertThat(policy.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
    assertThat(policy.getSpec().getEgress()).isEmpty();
    assertThat(policy.getSpec().getIngress()).isEmpty();

    cluster.markTerminated(denied, NetworkPolicyProbe.NO_ANSWER_STATUS);
    cluster.markTerminated(control, 0);
    assertThat(outcome.get().verdict()).isEqualTo(Verdict.ENFORCED);
  }

  @Test
  void noAnswerUnderThePolicyWhileTheControlConnectsMeansEnforced() throws Exception {
    Outcome outcome = probe(0, NetworkPolicyProbe.NO_ANSWER_STATUS);

    assertThat(outcome.verdict()).isEqualTo(Verdict.ENFORCED);
    assertThat(outcome.reason()).contains("could not connect").contains("no answer within 10 s");
  }

  @Test
  void aRefusedConnectionUnderThePolicyWhileTheControlConnectsMeansEnforced() throws Exception {
    Outcome outcome = probe(0, NetworkPolicyProbe.REFUSED_STATUS);

    assertThat(outcome.verdict()).isEqualTo(Verdict.ENFORCED);
    assertThat(outcome.reason()).contains("refused or unreachable");
  }

  @Test
  void aConnectionUnderThePolicyMeansNotEnforced() throws Exception {
    Outcome outcome = probe(0, 0);

    assertThat(outcome.verdict()).isEqualTo(Verdict.NOT_ENFORCED);
    assertThat(outcome.reason()).contains("connected").contains("does not enforce");
  }

  @Test
  void aControlThatCannotConnectMakesTheProbeInconclusiveWhateverThePodUnderThePolicyDid() throws Exception {
    Outcome timedOut = probe(NetworkPolicyProbe.NO_ANSWER_STATUS, NetworkPolicyProbe.NO_ANSWER_STATUS);
    Outcome noBash = probe(127, 127);

    assertThat(timedOut.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(timedOut.reason()).contains("control pod").contains("prove nothing");
    assertThat(noBash.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(noBash.reason()).contains("no runnable bash");
  }

  @Test
  void anExitUnderThePolicyThatIsNoConnectionsOutcomeIsInconclusive() throws Exception {
    Outcome killed = probe(0, 137);

    assertThat(killed.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(killed.reason()).contains("exit 137").contains("not a connection's outcome");
  }

  @Test
  void aPodThatEndsWithoutAnExitCodeMakesTheProbeInconclusive() throws Exception {
    Ids ids = Ids.fresh();
    Future<Outcome> outcome = startProbe(ids);
    Pod control = cluster.pod(PodManifest.name(ids.control()));
    cluster.client()
        .pods()
        .inNamespace(MockCluster.NAMESPACE)
        .resource(new PodBuilder(control).withStatus(new PodStatusBuilder().withPhase("Failed").withReason("Evicted").build()).build())
        .updateStatus();
    cluster.markTerminated(cluster.pod(PodManifest.name(ids.denied())), 0);

    Outcome result = outcome.get();

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.reason()).contains("control pod").contains("Evicted");
  }
}
