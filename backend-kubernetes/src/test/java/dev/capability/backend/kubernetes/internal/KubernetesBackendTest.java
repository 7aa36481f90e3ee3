package dev.capability.backend.kubernetes.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The backend created from a kubeconfig that names fabric8's mock API server (CRUD mode). */
class KubernetesBackendTest {
  private static MockCluster cluster;

  @BeforeAll
  static void start() {
    cluster = new MockCluster();
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  private static KubernetesBackend create(Path directory, Map<String, String> more) {
    Map<String, String> settings = new java.util.HashMap<>(more);
    settings.put("kubernetes.kubeconfig", cluster.kubeconfig(directory).toString());
    return KubernetesBackend.create(new BackendConfig(settings));
  }

  @Test
  void advertisesWhatThePodSpecificationGivesAndNoNetworkDenialUnlessTheOperatorStatesIt(@TempDir Path directory) {
    try (KubernetesBackend backend = create(directory, Map.of())) {
      assertThat(backend.id()).isEqualTo("kubernetes");
      assertThat(backend.namespace()).isEqualTo(MockCluster.NAMESPACE);
      assertThat(backend.capabilities())
          .contains(IsolationCapability.REMOTE_WORKSPACE, IsolationCapability.NON_ROOT, IsolationCapability.READ_ONLY_ROOT,
              IsolationCapability.CAPABILITY_DROP, IsolationCapability.NO_NEW_PRIVILEGES, IsolationCapability.MEMORY_LIMIT,
              IsolationCapability.CPU_LIMIT)
          .doesNotContain(
              IsolationCapability.NETWORK_NAMESPACE,
              IsolationCapability.FILTERED_EGRESS,
              IsolationCapability.READ_ONLY_REPOSITORY,
              IsolationCapability.WRITABLE_SCOPE_ROOTS,
              IsolationCapability.TERMINATION_ON_HOST_EXIT,
              IsolationCapability.PID_LIMIT,
              IsolationCapability.FILE_SIZE_LIMIT,
              IsolationCapability.WRITE_BUDGET);
      assertThat(backend.diagnostics().get("NETWORK_NAMESPACE")).contains("not claimed").contains("kubernetes.network-policy-enforced");
      assertThat(backend.diagnostics().get("summary")).contains("namespace " + MockCluster.NAMESPACE);
    }
    try (KubernetesBackend backend = create(directory, Map.of("kubernetes.network-policy-enforced", "true"))) {
      assertThat(backend.capabilities()).contains(IsolationCapability.NETWORK_NAMESPACE);
    }
  }

  private static final AtomicInteger PROBE_IDS = new AtomicInteger();

  /** Creates the backend with its records in {@code records}, probing when {@code diagnose}. */
  private static KubernetesBackend create(Path directory, NetworkPolicyRecords records, boolean diagnose, Map<String, String> more) {
    Map<String, String> settings = new java.util.HashMap<>(more);
    settings.put("kubernetes.kubeconfig", cluster.kubeconfig(directory).toString());
    if (diagnose) {
      settings.put(BackendConfig.DIAGNOSE, "true");
    }
    return KubernetesBackend.create(
        new BackendConfig(settings), true, records, () -> new UUID(3, PROBE_IDS.incrementAndGet()).toString());
  }

  /**
   * Creates a diagnosing backend, playing the kubelet for its probe: the control pod (created
   * second) ends with {@code control}, the pod under the policy with {@code denied}.
   */
  private static KubernetesBackend diagnose(
      Path directory, NetworkPolicyRecords records, Map<String, String> more, int control, int denied) throws Exception {
    ExecutorService creator = Executors.newSingleThreadExecutor();
    try {
      Future<KubernetesBackend> backend = creator.submit(() -> create(directory, records, true, more));
      while (cluster.pods().size() < 2 && !backend.isDone()) {
        Thread.sleep(20);
      }
      List<Pod> pods = cluster.pods();
      Pod underPolicy =
          pods.stream()
              .filter(p -> p.getMetadata().getName().equals(cluster.client().network().v1().networkPolicies()
                  .inNamespace(MockCluster.NAMESPACE).list().getItems().get(0).getMetadata().getName()))
              .findFirst()
              .orElseThrow();
      cluster.markTerminated(underPolicy, denied);
      pods.stream().filter(p -> p != underPolicy).forEach(p -> cluster.markTerminated(p, control));
      return backend.get();
    } finally {
      creator.shutdownNow();
    }
  }

  /** Every request the mock server recorded since the last call. */
  private static List<RecordedRequest> takeRequests() throws InterruptedException {
    List<RecordedRequest> requests = new ArrayList<>();
    for (RecordedRequest r = cluster.server().takeRequest(0, TimeUnit.SECONDS); r != null; r = cluster.server().takeRequest(0, TimeUnit.SECONDS)) {
      requests.add(r);
    }
    return requests;
  }

  @Test
  void aBackendCreatedWithoutDiagnosisNeverProbesAndClaimsOnTheOperatorsWordAlone(@TempDir Path directory) throws Exception {
    NetworkPolicyRecords records = new NetworkPolicyRecords(Optional.of(directory.resolve("records")));
    takeRequests();

    try (KubernetesBackend backend = create(directory, records, false, Map.of("kubernetes.network-policy-enforced", "true"))) {
      assertThat(takeRequests()).noneMatch(r -> r.getMethod().equals("POST"));
      assertThat(backend.capabilities()).contains(IsolationCapability.NETWORK_NAMESPACE);
      assertThat(backend.diagnostics().get("network-policy-probe")).startsWith("not probed yet");
    }
  }

  @Test
  void doctorsProbeFindingNetworkPolicyUnenforcedWithdrawsTheClaimForLaterBackendsUntilAProbeFindsItEnforced(@TempDir Path directory)
      throws Exception {
    NetworkPolicyRecords records = new NetworkPolicyRecords(Optional.of(directory.resolve("records")));
    Map<String, String> stated = Map.of("kubernetes.network-policy-enforced", "true");

    try (KubernetesBackend doctor = diagnose(directory, records, stated, 0, 0)) {
      assertThat(doctor.capabilities()).doesNotContain(IsolationCapability.NETWORK_NAMESPACE);
      assertThat(doctor.diagnostics().get("network-policy-probe")).startsWith("not enforced (probed ");
      assertThat(doctor.diagnostics().get("NETWORK_NAMESPACE")).contains("not claimed").contains("found NetworkPolicy not enforced");
    }
    assertThat(cluster.pods()).isEmpty();
    try (KubernetesBackend later = create(directory, records, false, stated)) {
      assertThat(later.capabilities()).doesNotContain(IsolationCapability.NETWORK_NAMESPACE);
      assertThat(later.diagnostics().get("network-policy-probe")).startsWith("not enforced");
    }

    try (KubernetesBackend doctor = diagnose(directory, records, stated, 0, NetworkPolicyProbe.NO_ANSWER_STATUS)) {
      assertThat(doctor.capabilities()).contains(IsolationCapability.NETWORK_NAMESPACE);
      assertThat(doctor.diagnostics().get("network-policy-probe")).startsWith("enforced (probed ");
    }
    try (KubernetesBackend later = create(directory, records, false, stated)) {
      assertThat(later.capabilities()).contains(IsolationCapability.NETWORK_NAMESPACE);
      assertThat(later.diagnostics().get("NETWORK_NAMESPACE")).contains("did not refute");
    }
  }

  @Test
  void anInconclusiveProbeLeavesTheOperatorsWordAndAnEnforcedOneDoesNotReplaceIt(@TempDir Path directory) throws Exception {
    NetworkPolicyRecords records = new NetworkPolicyRecords(Optional.of(directory.resolve("records")));

    try (KubernetesBackend doctor =
        diagnose(directory, records, Map.of("kubernetes.network-policy-enforced", "true"), NetworkPolicyProbe.NO_ANSWER_STATUS, 0)) {
      assertThat(doctor.capabilities()).contains(IsolationCapability.NETWORK_NAMESPACE);
      assertThat(doctor.diagnostics().get("network-policy-probe")).startsWith("inconclusive");
    }
    try (KubernetesBackend doctor = diagnose(directory, records, Map.of(), 0, NetworkPolicyProbe.NO_ANSWER_STATUS)) {
      assertThat(doctor.capabilities()).doesNotContain(IsolationCapability.NETWORK_NAMESPACE);
      assertThat(doctor.diagnostics().get("network-policy-probe")).startsWith("enforced");
    }
  }

  @Test
  void creatingTheBackendSweepsThePodsOfDeadJvmsOfThisHost(@TempDir Path directory) {
    HostJvm self = HostJvm.current();
    Map<String, String> labels = Map.of(Labels.SDK, "1", Labels.RUN, "r", Labels.HOST, self.host(), Labels.JVM, "2147483646.1");
    cluster.client().pods().inNamespace(MockCluster.NAMESPACE)
        .resource(new PodBuilder().withNewMetadata().withName("ck-leftover").withLabels(labels).endMetadata()
            .withNewSpec().addNewContainer().withName("c").withImage("i").endContainer().endSpec().build())
        .create();

    try (KubernetesBackend backend = create(directory, Map.of())) {
      assertThat(cluster.pods()).noneMatch(p -> p.getMetadata().getName().equals("ck-leftover"));
      assertThat(backend.diagnostics().get("leak-sweep")).startsWith("1 ");
    }
  }

  @Test
  void refusesFilteredNetworkAndMissingCapabilitiesBeforeCreatingAnything(@TempDir Path directory) {
    try (KubernetesBackend backend = create(directory, Map.of())) {
      assertThatThrownBy(() -> backend.launch(MockCluster.spec().network(NetworkMode.FILTERED).egressSocket(Path.of("/run/p.sock")).build()))
          .isInstanceOf(NetworkFilterUnavailableException.class);
      Set<IsolationCapability> required = EnumSet.of(IsolationCapability.READ_ONLY_REPOSITORY);
      assertThatThrownBy(() -> backend.launch(MockCluster.spec().requiredCapabilities(required).build()))
          .isInstanceOf(BackendUnavailableException.class)
          .hasMessageContaining("READ_ONLY_REPOSITORY")
          .satisfies(e -> assertThat(((BackendUnavailableException) e).code()).isEqualTo(BackendUnavailableException.ISOLATION_UNAVAILABLE));
      assertThat(cluster.pods()).isEmpty();
    }
  }
}
