package dev.capability.cli.internal;

import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.plugin.Plugins;
import dev.capability.kernel.core.BackendStatus;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.EgressGatewayStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code capability doctor}: which backends this machine really has, and what each can enforce. */
@Command(name = "doctor", description = "Show the backends found here, whether each is a sandbox, the bounds it enforces, "
    + "the isolation capabilities it verified, and whether it can run filtered network.")
final class DoctorCommand implements Callable<Integer> {
  private final Console console;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  DoctorCommand(Console console) {
    this.console = console;
  }

  /**
   * The bounds a run can be held to, each promised by one capability, or by every backend's baseline
   * contract (no capability). A bound no capability names is never shown as enforced: doctor says
   * only what a backend verified here.
   */
  enum Bound {
    TIMEOUT("timeout", "timeout", null, true),
    OUTPUT("output", "output", null, true),
    SESSION("session", "session ends on timeout", IsolationCapability.SESSION_TERMINATION, false),
    TREE("tree", "whole tree ends on timeout", IsolationCapability.TREE_TERMINATION, false),
    HOST_EXIT("hostExit", "tree ends when the host JVM dies", IsolationCapability.TERMINATION_ON_HOST_EXIT, false),
    MEMORY("memory", "memory", IsolationCapability.MEMORY_LIMIT, false),
    PROCESSES("processes", "processes", IsolationCapability.PID_LIMIT, false),
    CPU("cpu", "cpu", IsolationCapability.CPU_LIMIT, false),
    TMP_SIZE("tmpSize", "/tmp size", IsolationCapability.PRIVATE_TMP, false),
    FILE_SIZE("fileSize", "file size", IsolationCapability.FILE_SIZE_LIMIT, false),
    WRITE_BUDGET("writeBudget", "write budget", IsolationCapability.WRITE_BUDGET, false);

    final String key;
    final String label;
    private final IsolationCapability capability;
    private final boolean baseline;

    Bound(String key, String label, IsolationCapability capability, boolean baseline) {
      this.key = key;
      this.label = label;
      this.capability = capability;
      this.baseline = baseline;
    }

    /** Whether the backend holds every run to this bound here. */
    boolean enforcedBy(BackendStatus status) {
      return status.available() && (baseline || capability != null && status.capabilities().contains(capability));
    }
  }

  @Override
  public Integer call() {
    List<BackendStatus> statuses = probeAndKeep();
    EgressGatewayStatus gateway = CommandKernel.probeEgressGateway(DoctorCommand.class.getClassLoader());
    if (json) {
      List<Map<String, Object>> backends = statuses.stream().map(s -> toMap(s, gateway)).toList();
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("kernelVersion", CommandKernel.version());
      Map<String, Object> egressGateway = new LinkedHashMap<>();
      egressGateway.put("installed", gateway.installed());
      egressGateway.put("id", gateway.id());
      egressGateway.put("reason", gateway.reason());
      out.put("egressGateway", egressGateway);
      out.put("backends", backends);
      console.json(out);
    } else {
      statuses.forEach(s -> print(s, gateway));
    }
    return statuses.stream().anyMatch(BackendStatus::available) ? ExitCodes.OK : ExitCodes.CANNOT_EXECUTE;
  }

  /**
   * Probes every backend live, with the default settings and {@link BackendConfig#DIAGNOSE} (a
   * backend may then run its slower probes, such as the kubernetes backend's network policy probe),
   * and keeps what each probe learned in the probe cache ({@link BackendProbeCache}) that {@code
   * check} answers from: running doctor is how the cache is refreshed by hand. Available backends
   * first, as the kernel lists them.
   */
  private List<BackendStatus> probeAndKeep() {
    BackendProbeCache cache = BackendProbeCache.forUser(console.environment(), notice -> console.err().println("capability: " + notice));
    List<BackendStatus> available = new ArrayList<>();
    List<BackendStatus> unavailable = new ArrayList<>();
    for (BackendProvider provider : Plugins.load(BackendProvider.class, BackendProvider::id, DoctorCommand.class.getClassLoader()).values()) {
      BackendProbe probe = CachedBackendProvider.probeLive(provider, cache, console.environment(), BackendConfig.forDiagnosis());
      (probe.available() ? available : unavailable).add(new BackendStatus(
          probe.id(), probe.available(), probe.available() ? "available" : probe.reason(), probe.capabilities(), probe.diagnostics()));
    }
    available.addAll(unavailable);
    return available;
  }

  /**
   * Why filtered network ({@code "network": "filtered"}) cannot run on a backend here, each reason
   * it has; empty when it can: the backend confines commands to the egress proxy ({@code
   * FILTERED_EGRESS}) and an egress gateway is installed.
   */
  static List<String> filteredEgressMissing(BackendStatus s, EgressGatewayStatus gateway) {
    List<String> missing = new ArrayList<>();
    if (!s.available()) {
      missing.add("the backend is unavailable");
    } else if (!s.capabilities().contains(IsolationCapability.FILTERED_EGRESS)) {
      String why = s.diagnostics().get(IsolationCapability.FILTERED_EGRESS.name());
      missing.add("the backend does not advertise FILTERED_EGRESS" + (why == null ? "" : " (" + why + ")"));
    }
    if (!gateway.installed()) {
      missing.add(gateway.reason());
    }
    return missing;
  }

  private void print(BackendStatus s, EgressGatewayStatus gateway) {
    if (!s.available()) {
      console.out().println(s.id() + ": unavailable: " + s.reason());
    } else if (s.sandbox()) {
      console.out().println(s.id() + ": available, a sandbox");
    } else {
      console.out().println(s.id() + ": available, not a sandbox: runs only when named with --backend, or when the policy"
          + " says \"allowUnisolatedFallback\": true and no sandbox is available");
    }
    if (s.available()) {
      console.out().println("  capabilities: " + (s.capabilities().isEmpty() ? "(none)" : String.join(", ", sortedNames(s))));
      console.out().println("  bounds enforced: " + labels(s, true));
      console.out().println("  bounds not enforced: " + labels(s, false));
      List<String> missing = filteredEgressMissing(s, gateway);
      console.out().println("  filtered egress: " + (missing.isEmpty()
          ? "available (egress gateway " + gateway.id() + ")"
          : "unavailable: " + String.join("; ", missing)));
    }
    new TreeMap<>(s.diagnostics()).forEach((k, v) -> console.out().println("  " + k + ": " + v));
  }

  private static String labels(BackendStatus s, boolean enforced) {
    List<String> labels = Arrays.stream(Bound.values()).filter(b -> b.enforcedBy(s) == enforced).map(b -> b.label).toList();
    return labels.isEmpty() ? "(none)" : String.join(", ", labels);
  }

  private static List<String> sortedNames(BackendStatus s) {
    return s.capabilities().stream().map(Enum::name).sorted().toList();
  }

  private static Map<String, Object> toMap(BackendStatus s, EgressGatewayStatus gateway) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", s.id());
    m.put("available", s.available());
    m.put("sandbox", s.sandbox());
    m.put("reason", s.reason());
    m.put("capabilities", sortedNames(s));
    Map<String, Object> bounds = new LinkedHashMap<>();
    for (Bound bound : Bound.values()) {
      bounds.put(bound.key, bound.enforcedBy(s));
    }
    m.put("bounds", bounds);
    List<String> missing = filteredEgressMissing(s, gateway);
    Map<String, Object> filtered = new LinkedHashMap<>();
    filtered.put("available", missing.isEmpty());
    filtered.put("reason", String.join("; ", missing));
    m.put("filteredEgress", filtered);
    m.put("diagnostics", new TreeMap<>(s.diagnostics()));
    return m;
  }
}
