package dev.capability.backend.kubernetes.internal;

import dev.capability.backend.support.SettingValues;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The {@code kubernetes.*} settings of a {@link BackendConfig}, validated. An unknown {@code
 * kubernetes.*} key is an error rather than ignored, so that a misspelt limit is never silently
 * dropped.
 *
 * @param kubeconfig {@code kubernetes.kubeconfig}: the kubeconfig file; null for fabric8's usual
 *     discovery ({@code KUBECONFIG}, then {@code ~/.kube/config}, then the in-cluster service
 *     account)
 * @param context {@code kubernetes.context}: the kubeconfig context; null for its current context
 * @param namespace {@code kubernetes.namespace}: where pods and policies are made; null for the
 *     context's namespace, or {@code default}
 * @param image {@code kubernetes.image}: the image every pod starts from; it must provide {@code
 *     sh}, {@code sleep}, {@code tar}, {@code timeout}, {@code head} and {@code env}, and the libraries a shipped executable
 *     needs
 * @param memoryBytes {@code kubernetes.limit.memory}: the pod's memory limit (and request)
 * @param milliCpus {@code kubernetes.limit.cpus}: the pod's CPU limit (and request), in
 *     thousandths of a CPU
 * @param ephemeralStorageBytes {@code kubernetes.limit.ephemeral-storage}: the pod's
 *     ephemeral-storage limit (and request), which the kubelet enforces by evicting the pod
 * @param workspaceBytes {@code kubernetes.workspace-size}: the size limit of the workspace's {@code
 *     emptyDir}
 * @param tmpBytes {@code kubernetes.tmp-size}: the size of the private, memory-backed {@code /tmp}
 * @param startTimeout {@code kubernetes.start-timeout}: how long a pod may take to be scheduled,
 *     pull its image and start, in seconds
 * @param transferTimeout {@code kubernetes.transfer-timeout}: how long shipping the workspace in
 *     and the writable roots out may take, in seconds
 * @param networkPolicyEnforced {@code kubernetes.network-policy-enforced}: the operator's statement
 *     that the cluster's network plugin enforces {@code NetworkPolicy}; only then, and unless the
 *     last {@code doctor} probe found it unenforced ({@link NetworkPolicyProbe}), does the backend
 *     claim that a pod can be given no network
 */
public record KubernetesSettings(
    @Nullable Path kubeconfig,
    @Nullable String context,
    @Nullable String namespace,
    String image,
    long memoryBytes,
    long milliCpus,
    long ephemeralStorageBytes,
    long workspaceBytes,
    long tmpBytes,
    Duration startTimeout,
    Duration transferTimeout,
    boolean networkPolicyEnforced) {
  private static final SettingValues VALUES = new SettingValues("kubernetes");

  static final String PREFIX = "kubernetes.";
  static final String KUBECONFIG = "kubernetes.kubeconfig";
  static final String CONTEXT = "kubernetes.context";
  static final String NAMESPACE = "kubernetes.namespace";
  static final String IMAGE = "kubernetes.image";
  static final String LIMIT_MEMORY = "kubernetes.limit.memory";
  static final String LIMIT_CPUS = "kubernetes.limit.cpus";
  static final String LIMIT_EPHEMERAL_STORAGE = "kubernetes.limit.ephemeral-storage";
  static final String WORKSPACE_SIZE = "kubernetes.workspace-size";
  static final String TMP_SIZE = "kubernetes.tmp-size";
  static final String START_TIMEOUT = "kubernetes.start-timeout";
  static final String TRANSFER_TIMEOUT = "kubernetes.transfer-timeout";
  static final String NETWORK_POLICY_ENFORCED = "kubernetes.network-policy-enforced";

  private static final Set<String> KEYS =
      Set.of(
          KUBECONFIG,
          CONTEXT,
          NAMESPACE,
          IMAGE,
          LIMIT_MEMORY,
          LIMIT_CPUS,
          LIMIT_EPHEMERAL_STORAGE,
          WORKSPACE_SIZE,
          TMP_SIZE,
          START_TIMEOUT,
          TRANSFER_TIMEOUT,
          NETWORK_POLICY_ENFORCED);

  /** The default image: Debian's slim image provides sh (dash), tar, and sleep, timeout, head and env (coreutils). */
  public static final String DEFAULT_IMAGE = "docker.io/library/debian:bookworm-slim";

  static final long DEFAULT_MEMORY = 512L << 20;
  static final long DEFAULT_MILLI_CPUS = 1000;
  static final long DEFAULT_EPHEMERAL_STORAGE = 2L << 30;
  static final long DEFAULT_WORKSPACE = 1L << 30;
  static final long DEFAULT_TMP = 64L << 20;
  static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(120);
  static final Duration DEFAULT_TRANSFER_TIMEOUT = Duration.ofSeconds(300);

  /** A DNS-1123 label, what Kubernetes accepts as a namespace name. */
  private static final Pattern NAMESPACE_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

  /** CPUs as a decimal number with at most three fractional digits, for example {@code 0.5}. */
  private static final Pattern CPUS = Pattern.compile("[0-9]{1,6}(\\.[0-9]{1,3})?");

  public KubernetesSettings {
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(startTimeout, "startTimeout");
    Objects.requireNonNull(transferTimeout, "transferTimeout");
    if (image.isBlank() || image.chars().anyMatch(c -> c <= ' ')) {
      throw VALUES.invalid(IMAGE, "'" + image + "' is not an image reference");
    }
    if (namespace != null && !NAMESPACE_NAME.matcher(namespace).matches()) {
      throw VALUES.invalid(NAMESPACE, "'" + namespace + "' is not a namespace name (DNS-1123 label)");
    }
    if (context != null && context.isBlank()) {
      throw VALUES.invalid(CONTEXT, "must not be blank");
    }
    for (long bytes : new long[] {memoryBytes, ephemeralStorageBytes, workspaceBytes, tmpBytes}) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("sizes must be positive");
      }
    }
    if (milliCpus <= 0) {
      throw VALUES.invalid(LIMIT_CPUS, "must be at least 0.001");
    }
    if (startTimeout.isNegative() || startTimeout.isZero() || transferTimeout.isNegative() || transferTimeout.isZero()) {
      throw new IllegalArgumentException("timeouts must be positive");
    }
  }

  /** Every default: fabric8's discovery, the context's namespace, {@link #DEFAULT_IMAGE}. */
  public static KubernetesSettings defaults() {
    return from(BackendConfig.defaults());
  }

  /**
   * Reads and validates the {@code kubernetes.*} keys of {@code config}.
   *
   * @throws BackendUnavailableException {@code BACKEND_UNAVAILABLE} naming the key of an unknown
   *     setting or a bad value
   */
  public static KubernetesSettings from(BackendConfig config) {
    for (String key : config.settings().keySet()) {
      if (key.startsWith(PREFIX) && !KEYS.contains(key)) {
        throw VALUES.invalid(key, "unknown setting; known settings are " + KEYS.stream().sorted().toList());
      }
    }
    return new KubernetesSettings(
        config.get(KUBECONFIG).map(v -> VALUES.absolutePath(KUBECONFIG, v)).orElse(null),
        config.get(CONTEXT).map(String::strip).orElse(null),
        config.get(NAMESPACE).map(String::strip).orElse(null),
        config.get(IMAGE).map(String::strip).orElse(DEFAULT_IMAGE),
        config.get(LIMIT_MEMORY).map(v -> VALUES.bytes(LIMIT_MEMORY, v)).orElse(DEFAULT_MEMORY),
        config.get(LIMIT_CPUS).map(KubernetesSettings::milliCpus).orElse(DEFAULT_MILLI_CPUS),
        config
            .get(LIMIT_EPHEMERAL_STORAGE)
            .map(v -> VALUES.bytes(LIMIT_EPHEMERAL_STORAGE, v))
            .orElse(DEFAULT_EPHEMERAL_STORAGE),
        config.get(WORKSPACE_SIZE).map(v -> VALUES.bytes(WORKSPACE_SIZE, v)).orElse(DEFAULT_WORKSPACE),
        config.get(TMP_SIZE).map(v -> VALUES.bytes(TMP_SIZE, v)).orElse(DEFAULT_TMP),
        config
            .get(START_TIMEOUT)
            .map(v -> Duration.ofSeconds(VALUES.count(START_TIMEOUT, v)))
            .orElse(DEFAULT_START_TIMEOUT),
        config
            .get(TRANSFER_TIMEOUT)
            .map(v -> Duration.ofSeconds(VALUES.count(TRANSFER_TIMEOUT, v)))
            .orElse(DEFAULT_TRANSFER_TIMEOUT),
        config.get(NETWORK_POLICY_ENFORCED).map(v -> bool(NETWORK_POLICY_ENFORCED, v)).orElse(false));
  }

  /** A copy with another start timeout. */
  public KubernetesSettings withStartTimeout(Duration timeout) {
    return new KubernetesSettings(
        kubeconfig,
        context,
        namespace,
        image,
        memoryBytes,
        milliCpus,
        ephemeralStorageBytes,
        workspaceBytes,
        tmpBytes,
        timeout,
        transferTimeout,
        networkPolicyEnforced);
  }

  private static long milliCpus(String value) {
    String v = value.strip();
    if (!CPUS.matcher(v).matches()) {
      throw VALUES.invalid(LIMIT_CPUS, "'" + value + "' is not a number of CPUs such as 0.5 or 2");
    }
    int dot = v.indexOf('.');
    long whole = Long.parseLong(dot < 0 ? v : v.substring(0, dot));
    String fraction = dot < 0 ? "" : v.substring(dot + 1);
    long thousandths = fraction.isEmpty() ? 0 : Long.parseLong((fraction + "00").substring(0, 3));
    return whole * 1000 + thousandths;
  }

  private static boolean bool(String key, String value) {
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw VALUES.invalid(key, "'" + value + "' is not true or false");
    };
  }
}
