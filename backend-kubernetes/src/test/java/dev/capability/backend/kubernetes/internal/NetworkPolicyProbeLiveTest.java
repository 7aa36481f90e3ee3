package dev.capability.backend.kubernetes.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.kubernetes.KubernetesBackendProvider;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The network policy probe on a real cluster, gated like the live contract suite ({@code
 * KubernetesBackendContractTest}): it runs only when {@code KUBECONFIG} names a readable kubeconfig
 * whose cluster answers, and is skipped with the reason otherwise, also under {@code
 * CAPABILITY_REQUIRE_BACKENDS=1}. Which verdict a cluster gets depends on its network plugin; the
 * test asserts that the probe reaches one and leaves nothing behind. Its record goes to a
 * temporary directory, not the user's.
 */
class NetworkPolicyProbeLiveTest {
  @TempDir Path records;

  @Test
  void theProbeReachesAVerdictOnARealClusterAndDeletesEverythingItCreated() {
    String kubeconfig = System.getenv("KUBECONFIG");
    if (kubeconfig == null || kubeconfig.isBlank()) {
      Assumptions.abort("no cluster: KUBECONFIG is not set (the live kubernetes suite runs only against a real cluster)");
    }
    Path file = Path.of(kubeconfig.split(java.io.File.pathSeparator)[0]);
    if (!Files.isReadable(file)) {
      Assumptions.abort("no cluster: KUBECONFIG names " + file + ", which is not a readable file");
    }
    BackendProvider.Availability availability = new KubernetesBackendProvider().probe();
    if (!availability.available()) {
      Assumptions.abort("no cluster: " + availability.reason());
    }

    try (KubernetesBackend backend =
        KubernetesBackend.create(
            BackendConfig.forDiagnosis(), true, new NetworkPolicyRecords(Optional.of(records)), () -> UUID.randomUUID().toString())) {
      assertThat(backend.diagnostics().get("network-policy-probe")).matches("(enforced|not enforced|inconclusive) \\(probed .*");
      try (var client = KubernetesClients.connect(KubernetesSettings.defaults())) {
        Map<String, String> probe = Map.of(Labels.PROBE, Labels.NETWORK_POLICY_PROBE);
        assertThat(client.pods().inNamespace(backend.namespace()).withLabels(probe).list().getItems()).isEmpty();
        assertThat(client.network().v1().networkPolicies().inNamespace(backend.namespace()).withLabels(probe).list().getItems())
            .isEmpty();
      }
    }
  }
}
