package dev.capability.backend.docker;

import dev.capability.backend.docker.internal.DockerBackend;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import java.util.Objects;

/**
 * Provides the {@code docker} backend: each command runs in its own container, created through
 * the Docker daemon's API (docker-java, zerodep transport; {@code DOCKER_HOST}, {@code
 * DOCKER_TLS_VERIFY} and {@code DOCKER_CERT_PATH} as for the CLI), with a read-only root, no
 * capabilities, {@code no-new-privileges}, a non-root uid, network {@code none} unless the spec
 * allows the network, PID, memory and CPU limits, a size-limited {@code /tmp}, exactly the spec's
 * environment and explicit read-only binds only. Creating the backend removes the leftover
 * containers of JVMs that died.
 *
 * <p>Settings ({@link BackendConfig}, all optional): {@code docker.image}, {@code
 * docker.allow-pull}, {@code docker.uid}, {@code docker.gid}, {@code docker.limit.memory}, {@code
 * .pids}, {@code .cpus}, {@code docker.tmp-size}, {@code docker.shm-size}, {@code
 * docker.log-driver}, {@code docker.log-max-size}, {@code docker.system-paths}, {@code
 * docker.etc}, {@code docker.launcher}, {@code docker.init}, {@code docker.network}, {@code
 * docker.work-dir}, and the connection: {@code docker.host}, {@code docker.tls-verify}, {@code
 * docker.cert-path} and {@code docker.insecure-plain-tcp-gives-the-network-root}; see {@code
 * docs/backends/docker.md}. An unknown {@code docker.*} key is an error. Without {@code
 * docker.image}, the environment's {@code CAPABILITY_DOCKER_IMAGE} names the image (how the CLI's
 * operator chooses it). A daemon reached over TCP
 * is remote: nothing of this host is bound, and the backend advertises {@code REMOTE_WORKSPACE}.
 */
public final class DockerBackendProvider implements BackendProvider {

  /** Found by {@link java.util.ServiceLoader}. */
  public DockerBackendProvider() {}

  @Override
  public String id() {
    return DockerBackend.ID;
  }

  /** Probes the daemon with default settings by running a real probe container; never throws. */
  @Override
  public Availability probe() {
    return DockerBackend.probeDefaults();
  }

  /**
   * Sweeps leftovers, probes with {@code config} and creates the backend.
   *
   * @throws dev.capability.kernel.api.BackendUnavailableException {@code BACKEND_UNAVAILABLE} when
   *     a setting is invalid, the daemon is unreachable, the image is missing, or the probe
   *     container shows the defaults are not enforced
   */
  @Override
  public ExecutionBackend create(BackendConfig config) {
    return DockerBackend.create(Objects.requireNonNull(config, "config"));
  }
}
