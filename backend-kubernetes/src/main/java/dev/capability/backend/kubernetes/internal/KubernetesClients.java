package dev.capability.backend.kubernetes.internal;

import dev.capability.kernel.api.BackendUnavailableException;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Connects to the cluster the way {@code kubectl} does, through fabric8's discovery: the {@code
 * kubernetes.kubeconfig} setting, else {@code KUBECONFIG}, else {@code ~/.kube/config}, else the
 * in-cluster service account; the context named by {@code kubernetes.context}, else the current
 * one. Over the JDK's HTTP client, with a bounded connect and request timeout and one retry, so
 * that an unreachable cluster is reported, never waited for.
 */
final class KubernetesClients {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
  /**
   * One retry of a failed request, after half a second: fabric8's default (ten, backing off
   * exponentially) would keep a probe of an unreachable cluster waiting for minutes.
   */
  static final int RETRIES = 1;
  static final Duration RETRY_INTERVAL = Duration.ofMillis(500);

  private KubernetesClients() {}

  /**
   * A client for the settings' cluster.
   *
   * @throws BackendUnavailableException {@code BACKEND_UNAVAILABLE} when the kubeconfig cannot be
   *     read
   */
  static KubernetesClient connect(KubernetesSettings settings) {
    Config config = config(settings);
    config.setConnectionTimeout((int) CONNECT_TIMEOUT.toMillis());
    config.setRequestTimeout((int) REQUEST_TIMEOUT.toMillis());
    config.setRequestRetryBackoffLimit(RETRIES);
    config.setRequestRetryBackoffInterval((int) RETRY_INTERVAL.toMillis());
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientFactory(new JdkHttpClientFactory())
        .build();
  }

  private static Config config(KubernetesSettings settings) {
    Path kubeconfig = settings.kubeconfig();
    try {
      if (kubeconfig != null) {
        if (!Files.isReadable(kubeconfig)) {
          throw new IOException("it is not a readable file");
        }
        return Config.fromKubeconfig(settings.context(), kubeconfig.toFile());
      }
      return Config.autoConfigure(settings.context());
    } catch (IOException | KubernetesClientException | IllegalArgumentException e) {
      throw new BackendUnavailableException(
          BackendUnavailableException.UNAVAILABLE,
          "cannot read the kubeconfig "
              + (kubeconfig == null ? "found by KUBECONFIG or ~/.kube/config" : kubeconfig.toString())
              + (settings.context() == null ? "" : " for context " + settings.context())
              + ": "
              + e.getMessage(),
          e);
    }
  }
}
