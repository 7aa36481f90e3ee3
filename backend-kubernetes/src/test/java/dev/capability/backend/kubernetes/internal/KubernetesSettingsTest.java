package dev.capability.backend.kubernetes.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KubernetesSettingsTest {

  private static KubernetesSettings settings(Map<String, String> values) {
    return KubernetesSettings.from(new BackendConfig(values));
  }

  @Test
  void defaultsLeaveTheClusterToDiscoveryAndClaimNoNetworkPolicyEnforcement() {
    KubernetesSettings defaults = KubernetesSettings.defaults();
    assertThat(defaults.kubeconfig()).isNull();
    assertThat(defaults.context()).isNull();
    assertThat(defaults.namespace()).isNull();
    assertThat(defaults.image()).isEqualTo(KubernetesSettings.DEFAULT_IMAGE);
    assertThat(defaults.networkPolicyEnforced()).isFalse();
    assertThat(defaults.startTimeout()).isEqualTo(Duration.ofSeconds(120));
  }

  @Test
  void readsEverySetting() {
    KubernetesSettings s =
        settings(
            Map.ofEntries(
                Map.entry("kubernetes.kubeconfig", "/etc/capability/kubeconfig"),
                Map.entry("kubernetes.context", "ci"),
                Map.entry("kubernetes.namespace", "agents"),
                Map.entry("kubernetes.image", "registry.example/sandbox:1"),
                Map.entry("kubernetes.limit.memory", "1G"),
                Map.entry("kubernetes.limit.cpus", "2.25"),
                Map.entry("kubernetes.limit.ephemeral-storage", "4G"),
                Map.entry("kubernetes.workspace-size", "2G"),
                Map.entry("kubernetes.tmp-size", "32M"),
                Map.entry("kubernetes.start-timeout", "60"),
                Map.entry("kubernetes.transfer-timeout", "90"),
                Map.entry("kubernetes.network-policy-enforced", "true")));
    assertThat(s.kubeconfig()).hasToString("/etc/capability/kubeconfig");
    assertThat(s.context()).isEqualTo("ci");
    assertThat(s.namespace()).isEqualTo("agents");
    assertThat(s.memoryBytes()).isEqualTo(1L << 30);
    assertThat(s.milliCpus()).isEqualTo(2250);
    assertThat(s.ephemeralStorageBytes()).isEqualTo(4L << 30);
    assertThat(s.workspaceBytes()).isEqualTo(2L << 30);
    assertThat(s.tmpBytes()).isEqualTo(32L << 20);
    assertThat(s.startTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(s.transferTimeout()).isEqualTo(Duration.ofSeconds(90));
    assertThat(s.networkPolicyEnforced()).isTrue();
  }

  @Test
  void anUnknownKubernetesKeyIsAnErrorNamingIt() {
    assertThatThrownBy(() -> settings(Map.of("kubernetes.limit.memroy", "1G")))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("kubernetes.limit.memroy")
        .hasMessageContaining("unknown setting");
  }

  @Test
  void badValuesAreErrorsNamingTheKey() {
    Map<String, String> bad =
        Map.of(
            "kubernetes.namespace", "Not_A_Name",
            "kubernetes.limit.cpus", "-1",
            "kubernetes.limit.memory", "lots",
            "kubernetes.start-timeout", "0",
            "kubernetes.network-policy-enforced", "yes",
            "kubernetes.kubeconfig", "relative/kubeconfig",
            "kubernetes.image", "two words");
    bad.forEach(
        (key, value) ->
            assertThatThrownBy(() -> settings(Map.of(key, value)))
                .as(key)
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("invalid kubernetes setting " + key));
  }

  @Test
  void otherBackendsKeysAreIgnored() {
    assertThat(settings(Map.of("docker.image", "x")).image()).isEqualTo(KubernetesSettings.DEFAULT_IMAGE);
  }
}
