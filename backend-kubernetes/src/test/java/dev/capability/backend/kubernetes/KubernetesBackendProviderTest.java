package dev.capability.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The provider as a host finds it, against clusters that are not there. */
class KubernetesBackendProviderTest {

  @Test
  void isFoundByTheServiceLoaderUnderItsId() {
    assertThat(ServiceLoader.load(BackendProvider.class).stream().map(ServiceLoader.Provider::get))
        .anySatisfy(p -> {
          assertThat(p).isInstanceOf(KubernetesBackendProvider.class);
          assertThat(p.id()).isEqualTo("kubernetes");
        });
  }

  @Test
  void aClusterThatDoesNotAnswerMakesCreationFailNamingTheServer(@TempDir Path directory) throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Path kubeconfig = Files.writeString(directory.resolve("kubeconfig"), kubeconfig("http://127.0.0.1:" + port));
    BackendConfig config = new BackendConfig(Map.of("kubernetes.kubeconfig", kubeconfig.toString()));

    assertThatThrownBy(() -> new KubernetesBackendProvider().create(config))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("no kubernetes cluster reachable at http://127.0.0.1:" + port)
        .satisfies(e -> assertThat(((BackendUnavailableException) e).code()).isEqualTo(BackendUnavailableException.UNAVAILABLE));
  }

  @Test
  void aKubeconfigThatCannotBeReadMakesCreationFailNamingIt(@TempDir Path directory) {
    Path missing = directory.resolve("absent");
    BackendConfig config = new BackendConfig(Map.of("kubernetes.kubeconfig", missing.toString()));

    assertThatThrownBy(() -> new KubernetesBackendProvider().create(config))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("cannot read the kubeconfig " + missing);
  }

  @Test
  void theProbeNeverThrowsAndGivesAReason() {
    BackendProvider.Availability availability = new KubernetesBackendProvider().probe();
    assertThat(availability.reason()).isNotBlank();
  }

  static String kubeconfig(String server) {
    return "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: "
        + server
        + "\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\ncurrent-context: c\nusers:\n- name: u\n  user:\n    token: t\n";
  }
}
