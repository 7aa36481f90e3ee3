package dev.capability.backend.docker.internal;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.transport.DockerHttpClient;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;
import java.time.Duration;

/**
 * Connects to the Docker daemon the way the {@code docker} CLI does: {@code DOCKER_HOST} (a Unix
 * socket by default; TCP with TLS through {@code DOCKER_TLS_VERIFY} and {@code DOCKER_CERT_PATH}),
 * over docker-java's zerodep transport. Registry credentials are never read or sent: the backend
 * does not push, and pulls only anonymously when the operator allows it.
 */
public final class DockerClients {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  private DockerClients() {}

  /** A client for the daemon named by this process's environment. */
  public static DockerClient fromEnvironment() {
    DockerClientConfig config = DefaultDockerClientConfig.createDefaultConfigBuilder().build();
    DockerHttpClient http =
        new ZerodepDockerHttpClient.Builder()
            .dockerHost(config.getDockerHost())
            .sslConfig(config.getSSLConfig())
            .connectionTimeout(CONNECT_TIMEOUT)
            .maxConnections(64)
            .build();
    return DockerClientImpl.getInstance(config, http);
  }

  /** Where the client connects, for diagnostics; never credentials. */
  public static String describeHost() {
    return DefaultDockerClientConfig.createDefaultConfigBuilder().build().getDockerHost().toString();
  }
}
