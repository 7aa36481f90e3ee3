package dev.capability.backend.kubernetes.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.nio.file.Path;
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
