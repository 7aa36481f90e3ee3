package dev.capability.backend.kubernetes;

import dev.capability.backend.kubernetes.internal.KubernetesBackend;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import java.util.Objects;

/**
 * Provides the {@code kubernetes} backend: each command runs in its own pod, created through the
 * cluster's API (fabric8's client over the JDK's HTTP client; the cluster found as {@code kubectl}
 * finds it: {@code KUBECONFIG}, {@code ~/.kube/config}, or the in-cluster service account), under
 * the restricted Pod Security profile (uid and gid 65534, {@code runAsNonRoot}, a read-only root,
 * every capability dropped, no privilege escalation, the runtime's default seccomp profile, no
 * service account token, no service links), with CPU, memory and ephemeral-storage limits, an
 * {@code activeDeadlineSeconds} from the timeout, a deny-all {@code NetworkPolicy} unless the spec
 * allows the network, and the workspace shipped in and the writable roots brought back through
 * exec streams. Creating the backend deletes the leftover pods of JVMs of this host that died;
 * created with {@link BackendConfig#DIAGNOSE} ({@code capability doctor}), it also probes whether
 * the cluster enforces {@code NetworkPolicy} (see {@code docs/kubernetes.md}).
 *
 * <p>Settings ({@link BackendConfig}, all optional): {@code kubernetes.kubeconfig}, {@code
 * kubernetes.context}, {@code kubernetes.namespace}, {@code kubernetes.image}, {@code
 * kubernetes.limit.memory}, {@code .cpus}, {@code .ephemeral-storage}, {@code
 * kubernetes.workspace-size}, {@code kubernetes.tmp-size}, {@code kubernetes.start-timeout},
 * {@code kubernetes.transfer-timeout} and {@code kubernetes.network-policy-enforced}; see {@code
 * docs/kubernetes.md}. An unknown {@code kubernetes.*} key is an error.
 */
public final class KubernetesBackendProvider implements BackendProvider {

  /** Found by {@link java.util.ServiceLoader}. */
  public KubernetesBackendProvider() {}

  @Override
  public String id() {
    return KubernetesBackend.ID;
  }

  /**
   * Asks the cluster of the default settings for its version and whether pods can be listed, with
   * a bounded connect timeout; never throws.
   */
  @Override
  public Availability probe() {
    return KubernetesBackend.probeDefaults();
  }

  /**
   * Connects with {@code config}, sweeps leftovers and creates the backend.
   *
   * @throws dev.capability.kernel.api.BackendUnavailableException {@code BACKEND_UNAVAILABLE} when
   *     a setting is invalid, no kubeconfig is found, or the cluster is unreachable or refuses to
   *     list pods in the namespace
   */
  @Override
  public ExecutionBackend create(BackendConfig config) {
    return KubernetesBackend.create(Objects.requireNonNull(config, "config"));
  }
}
