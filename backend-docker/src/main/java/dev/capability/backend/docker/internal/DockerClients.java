package dev.capability.backend.docker.internal;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.transport.DockerHttpClient;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;
import java.time.Duration;

/**
 * Connects to the Docker daemon named by a {@link DockerEndpoint} (by default the way the {@code
 * docker} CLI does: {@code DOCKER_HOST}, a Unix socket by default; TCP only with TLS through {@code
 * DOCKER_TLS_VERIFY} and {@code DOCKER_CERT_PATH}), over docker-java's zerodep transport. Registry
 * credentials are never read or sent: the backend does not push, and pulls only anonymously when
 * the operator allows it.
 */
public final class DockerClients {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  private DockerClients() {}

  /**
   * A client for the daemon named by this process's environment.
   *
   * @throws dev.capability.kernel.api.BackendUnavailableException when the environment names
   *     plain TCP without consent, or TLS files that are missing or broken
   */
  public static DockerClient fromEnvironment() {
    return forEndpoint(DockerEndpoint.fromEnvironment());
  }

  /** A client for {@code endpoint}. */
  public static DockerClient forEndpoint(DockerEndpoint endpoint) {
    DockerClientConfig config =
        DefaultDockerClientConfig.createDefaultConfigBuilder()
            .withDockerHost(endpoint.host().toString())
            .withDockerTlsVerify(endpoint.certificates().isPresent())
            .withDockerCertPath(endpoint.certificates().map(Object::toString).orElse(null))
            .build();
    DockerHttpClient http =
        new ZerodepDockerHttpClient.Builder()
            .dockerHost(endpoint.host())
            .sslConfig(endpoint.sslConfig())
            .connectionTimeout(CONNECT_TIMEOUT)
            .maxConnections(64)
            .build();
    return DockerClientImpl.getInstance(config, http);
  }
}
