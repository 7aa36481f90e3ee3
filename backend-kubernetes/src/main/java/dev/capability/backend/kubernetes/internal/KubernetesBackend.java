package dev.capability.backend.kubernetes.internal;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.VersionInfo;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The {@code kubernetes} backend: each launch runs in its own pod under the restricted Pod Security
 * profile, with the workspace shipped in and the writable roots brought back through exec streams
 * ({@link PodRun}). It advertises what the pod specification it sends asks of every conforming
 * kubelet, and network denial only when the operator states that the cluster's network plugin
 * enforces {@code NetworkPolicy} and the last network policy probe ({@link NetworkPolicyProbe},
 * run by {@code doctor}) did not find it unenforced.
 */
public final class KubernetesBackend implements ExecutionBackend {
  public static final String ID = "kubernetes";

  /**
   * What every pod is given by the specification this backend sends, which a conforming kubelet and
   * container runtime apply or refuse to run the pod: its own PID, IPC and UTS namespaces (no host
   * namespaces), a non-root uid with {@code runAsNonRoot}, a read-only root, no capabilities, no
   * privilege escalation ({@code no_new_privs}), the runtime's default seccomp profile, CPU and
   * memory limits, a private memory-backed {@code /tmp}, no host paths, the pod deleted (every
   * process with it) when the command ends or times out, and the workspace shipped.
   */
  static final Set<IsolationCapability> POD_CAPABILITIES =
      Set.copyOf(
          EnumSet.of(
              IsolationCapability.SESSION_TERMINATION,
              IsolationCapability.TREE_TERMINATION,
              IsolationCapability.PID_NAMESPACE,
              IsolationCapability.IPC_NAMESPACE,
              IsolationCapability.UTS_NAMESPACE,
              IsolationCapability.NON_ROOT,
              IsolationCapability.READ_ONLY_ROOT,
              IsolationCapability.CAPABILITY_DROP,
              IsolationCapability.NO_NEW_PRIVILEGES,
              IsolationCapability.SECCOMP,
              IsolationCapability.MEMORY_LIMIT,
              IsolationCapability.CPU_LIMIT,
              IsolationCapability.PRIVATE_TMP,
              IsolationCapability.HOST_SOCKETS_HIDDEN,
              IsolationCapability.REMOTE_WORKSPACE));

  /** The ids of the network policy probe's pods. */
  private static final Supplier<String> RUN_IDS = () -> UUID.randomUUID().toString();

  private final KubernetesClient client;
  private final String namespace;
  private final Set<IsolationCapability> capabilities;
  private final Map<String, String> diagnostics;
  private final Map<String, String> versions;
  private final PodRun runs;

  private KubernetesBackend(
      KubernetesClient client,
      String namespace,
      KubernetesSettings settings,
      Optional<NetworkPolicyRecords.Recorded> lastProbe,
      Map<String, String> diagnostics,
      Map<String, String> versions,
      HostJvm jvm) {
    this.client = client;
    this.namespace = namespace;
    this.capabilities = capabilities(settings, lastProbe.map(NetworkPolicyRecords.Recorded::outcome));
    this.diagnostics = Map.copyOf(diagnostics);
    this.versions = Map.copyOf(versions);
    this.runs = new PodRun(client, namespace, settings, jvm);
  }

  /** Probes the cluster of the default settings ({@code KUBECONFIG}); never throws. */
  public static BackendProvider.Availability probeDefaults() {
    try (KubernetesBackend backend = create(BackendConfig.defaults(), false, NetworkPolicyRecords.forUser(System.getenv()), RUN_IDS)) {
      return BackendProvider.Availability.available(backend.diagnostics.get("summary"));
    } catch (BackendUnavailableException e) {
      return BackendProvider.Availability.unavailable(e.getMessage());
    } catch (RuntimeException e) {
      return BackendProvider.Availability.unavailable("probing the kubernetes cluster failed: " + e);
    }
  }

  /**
   * Connects, checks the namespace can be listed, sweeps the leftovers of dead JVMs of this host,
   * and creates the backend. With {@link BackendConfig#diagnosing()} it also probes whether the
   * cluster enforces {@code NetworkPolicy} ({@link NetworkPolicyProbe}) and keeps the outcome for
   * later backends ({@link NetworkPolicyRecords}); that takes a pod start and some seconds.
   *
   * @throws BackendUnavailableException when a setting is invalid, no kubeconfig is found, or the
   *     cluster cannot be reached or refuses to list pods in the namespace
   */
  public static KubernetesBackend create(BackendConfig config) {
    return create(config, true, NetworkPolicyRecords.forUser(System.getenv()), RUN_IDS);
  }

  /**
   * @param records where the network policy probe's outcomes are kept
   * @param probeIds the ids of the probe's pods: fresh UUIDs, but in tests known ahead
   */
  static KubernetesBackend create(BackendConfig config, boolean sweep, NetworkPolicyRecords records, Supplier<String> probeIds) {
    KubernetesSettings settings = KubernetesSettings.from(Objects.requireNonNull(config, "config"));
    KubernetesClient client = KubernetesClients.connect(settings);
    try {
      String namespace = namespace(settings, client);
      String server = client.getMasterUrl() == null ? "an unknown server" : client.getMasterUrl().toString();
      VersionInfo version = version(client, server);
      try {
        client.pods().inNamespace(namespace).list(new ListOptionsBuilder().withLimit(1L).build());
      } catch (KubernetesClientException e) {
        throw new BackendUnavailableException(
            BackendUnavailableException.UNAVAILABLE,
            "the cluster at " + server + " does not let this client list pods in namespace " + namespace + ": " + e.getMessage(),
            e);
      }
      Map<String, String> diagnostics = new TreeMap<>();
      diagnostics.put("server", server);
      diagnostics.put("namespace", namespace);
      diagnostics.put("image", settings.image() + " (must provide sh, sleep, GNU tar, timeout, head and env; bash for the network policy probe)");
      diagnostics.put(
          "limits",
          "cpu "
              + settings.milliCpus()
              + "m, memory "
              + settings.memoryBytes()
              + " bytes, ephemeral-storage "
              + settings.ephemeralStorageBytes()
              + " bytes, workspace "
              + settings.workspaceBytes()
              + " bytes");
      HostJvm jvm = HostJvm.current();
      if (sweep) {
        int removed = new LeakSweep(client, namespace, jvm).sweep();
        diagnostics.put("leak-sweep", removed + " leftover pod(s) and network policies of dead JVMs deleted");
      }
      Optional<NetworkPolicyRecords.Recorded> lastProbe = records.read(server, namespace);
      if (config.diagnosing()) {
        Instant probedAt = Instant.now();
        NetworkPolicyProbe.Outcome outcome = new NetworkPolicyProbe(client, namespace, settings, jvm, probeIds).probe();
        records.write(server, namespace, outcome, probedAt).ifPresent(problem -> diagnostics.put("network-policy-record", problem));
        lastProbe = Optional.of(new NetworkPolicyRecords.Recorded(outcome, probedAt.toString()));
      }
      diagnostics.put(
          "network-policy-probe",
          lastProbe
              .map(p -> p.outcome().verdict().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " (probed " + p.probedAt() + "): " + p.outcome().reason())
              .orElse("not probed yet: capability doctor probes it (see docs/kubernetes.md)"));
      explainMissing(settings, lastProbe.map(NetworkPolicyRecords.Recorded::outcome), diagnostics);
      diagnostics.put(
          "summary",
          "kubernetes " + version.getGitVersion() + " at " + server + "; namespace " + namespace + "; image " + settings.image());
      Map<String, String> versions = new TreeMap<>();
      if (version.getGitVersion() != null) {
        versions.put("kubernetes", version.getGitVersion());
      }
      if (version.getPlatform() != null) {
        versions.put("platform", version.getPlatform());
      }
      return new KubernetesBackend(client, namespace, settings, lastProbe, diagnostics, versions, jvm);
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  private static String namespace(KubernetesSettings settings, KubernetesClient client) {
    if (settings.namespace() != null) {
      return settings.namespace();
    }
    String fromContext = client.getNamespace();
    return fromContext == null || fromContext.isBlank() ? "default" : fromContext;
  }

  private static VersionInfo version(KubernetesClient client, String server) {
    try {
      VersionInfo version = client.getKubernetesVersion();
      if (version == null) {
        throw new KubernetesClientException("the server reported no version");
      }
      return version;
    } catch (KubernetesClientException e) {
      throw new BackendUnavailableException(
          BackendUnavailableException.UNAVAILABLE,
          "no kubernetes cluster reachable at "
              + server
              + " (set KUBECONFIG, or "
              + KubernetesSettings.KUBECONFIG
              + " and "
              + KubernetesSettings.CONTEXT
              + "): "
              + e.getMessage(),
          e);
    }
  }

  /**
   * What this backend advertises with {@code settings} and the last network policy probe; see
   * {@link #POD_CAPABILITIES}. Network denial is claimed when the operator states that the
   * cluster enforces {@code NetworkPolicy} and the last probe, if any, did not find it unenforced.
   */
  static Set<IsolationCapability> capabilities(KubernetesSettings settings, Optional<NetworkPolicyProbe.Outcome> lastProbe) {
    Set<IsolationCapability> capabilities = EnumSet.noneOf(IsolationCapability.class);
    capabilities.addAll(POD_CAPABILITIES);
    if (settings.networkPolicyEnforced() && !refuted(lastProbe)) {
      capabilities.add(IsolationCapability.NETWORK_NAMESPACE);
    }
    return Set.copyOf(capabilities);
  }

  private static boolean refuted(Optional<NetworkPolicyProbe.Outcome> lastProbe) {
    return lastProbe.map(o -> o.verdict() == NetworkPolicyProbe.Verdict.NOT_ENFORCED).orElse(false);
  }

  private static void explainMissing(
      KubernetesSettings settings, Optional<NetworkPolicyProbe.Outcome> lastProbe, Map<String, String> diagnostics) {
    String setting = KubernetesSettings.NETWORK_POLICY_ENFORCED;
    String networkNamespace;
    if (settings.networkPolicyEnforced() && refuted(lastProbe)) {
      networkNamespace =
          "not claimed: " + setting + "=true, but the last network policy probe found NetworkPolicy not enforced"
              + " (see network-policy-probe); fix the cluster's network plugin, or set " + setting + "=false";
    } else if (settings.networkPolicyEnforced()) {
      networkNamespace =
          "claimed on the operator's word (" + setting + "=true)"
              + (lastProbe.isPresent() ? ", which the last network policy probe did not refute" : "")
              + ": every pod without network gets a deny-all NetworkPolicy";
    } else {
      networkNamespace =
          "not claimed: every pod without network gets a deny-all NetworkPolicy, but only a network"
              + " plugin that enforces NetworkPolicy applies it; set " + setting
              + "=true once the cluster's plugin is known to (capability doctor probes it; see docs/kubernetes.md)";
    }
    diagnostics.put("NETWORK_NAMESPACE", networkNamespace);
    diagnostics.put(
        "FILTERED_EGRESS",
        "not available: the egress proxy's socket is on this host, and no pod can reach it");
    diagnostics.put(
        "READ_ONLY_REPOSITORY",
        "not claimed: the workspace is unpacked by the pod's own user, which can then write all of it;"
            + " only the writable roots are brought back, and the kernel audits them");
    diagnostics.put("WRITABLE_SCOPE_ROOTS", "not claimed, for the same reason as READ_ONLY_REPOSITORY");
    diagnostics.put("PID_LIMIT", "not claimed: a pod specification cannot bound its processes (the kubelet's podPidsLimit can)");
    diagnostics.put(
        "FILE_SIZE_LIMIT", "not claimed: a pod specification cannot set RLIMIT_FSIZE; ephemeral storage is bounded by eviction");
    diagnostics.put("WRITE_BUDGET", "not claimed: the writable roots are in the pod; their emptyDir size limit evicts the pod");
    diagnostics.put(
        "TERMINATION_ON_HOST_EXIT",
        "not claimed: a pod outlives a dead JVM until its activeDeadlineSeconds, or the next leak sweep");
    diagnostics.put("USER_NAMESPACE", "not claimed: user namespaces for pods (hostUsers: false) are not requested");
    diagnostics.put("NO_NESTED_USER_NAMESPACES", "not claimed: the runtime's default seccomp profile is not the project's");
    diagnostics.put("CGROUP_NAMESPACE", "not claimed: not verified on the cluster's nodes");
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public Set<IsolationCapability> capabilities() {
    return capabilities;
  }

  @Override
  public Map<String, String> versions() {
    return versions;
  }

  @Override
  public Map<String, String> diagnostics() {
    return new LinkedHashMap<>(diagnostics);
  }

  /** The namespace pods are created in. */
  public String namespace() {
    return namespace;
  }

  @Override
  public LaunchResult launch(LaunchSpec spec) {
    Objects.requireNonNull(spec, "spec");
    if (spec.network() == NetworkMode.FILTERED) {
      throw new NetworkFilterUnavailableException(
          "the kubernetes backend cannot confine "
              + spec.executable().path()
              + " to the egress proxy: "
              + diagnostics.get("FILTERED_EGRESS"));
    }
    Set<IsolationCapability> missing = EnumSet.noneOf(IsolationCapability.class);
    missing.addAll(spec.requiredCapabilities());
    missing.removeAll(capabilities);
    if (!missing.isEmpty()) {
      throw new BackendUnavailableException(
          BackendUnavailableException.ISOLATION_UNAVAILABLE,
          "the kubernetes backend cannot provide "
              + missing
              + ", required to run "
              + spec.executable().path()
              + "; see its diagnostics for why");
    }
    return runs.run(spec);
  }

  @Override
  public void close() {
    client.close();
  }
}
