package dev.capability.kernel.core.internal.backend;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.core.BackendSelection;
import dev.capability.kernel.core.BackendStatus;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The backends a kernel can use. Providers are probed lazily, each at most once: a request that
 * names a backend probes (and creates) only that one, the automatic choice and the statuses probe
 * every provider. An available provider's backend is created when it is probed; an unavailable one
 * keeps its reason. Thread-safe.
 */
public final class BackendRegistry implements AutoCloseable {
  private final Map<String, BackendProvider> providers;
  private final BackendConfig config;
  private final Map<String, ExecutionBackend> available = new LinkedHashMap<>();
  private final Map<String, String> unavailable = new LinkedHashMap<>();
  private boolean closed;

  private BackendRegistry(Map<String, BackendProvider> providers, Map<String, ExecutionBackend> given, BackendConfig config) {
    this.providers = providers;
    this.config = config;
    this.available.putAll(given);
  }

  /**
   * A registry of {@code providers}, probed when first needed, and of {@code instances}, used as
   * they are.
   *
   * @throws BackendUnavailableException {@code BACKEND_DUPLICATE} when two of them share an id
   */
  public static BackendRegistry create(
      Map<String, BackendProvider> providers, List<ExecutionBackend> instances, BackendConfig config) {
    Map<String, ExecutionBackend> given = new LinkedHashMap<>();
    for (ExecutionBackend backend : instances) {
      if (given.putIfAbsent(backend.id(), backend) != null) {
        throw duplicate(backend.id());
      }
    }
    for (String id : providers.keySet()) {
      if (given.containsKey(id)) {
        throw duplicate(id);
      }
    }
    return new BackendRegistry(new LinkedHashMap<>(providers), given, config);
  }

  /** The id of every backend, given or provided, probed or not. */
  public synchronized Set<String> ids() {
    Set<String> ids = new LinkedHashSet<>(available.keySet());
    ids.addAll(providers.keySet());
    return ids;
  }

  /** Probes every provider not probed yet. */
  private void probeAll() {
    providers.keySet().forEach(this::probe);
  }

  /** Probes the provider {@code id} unless it was probed already; creates its backend when available. */
  private void probe(String id) {
    if (closed) {
      throw new IllegalStateException("the backend registry is closed");
    }
    BackendProvider provider = providers.get(id);
    if (provider == null || available.containsKey(id) || unavailable.containsKey(id)) {
      return;
    }
    BackendProvider.Availability availability = provider.probe();
    if (!availability.available()) {
      unavailable.put(id, availability.reason());
      return;
    }
    try {
      available.put(id, provider.create(config));
    } catch (CapabilityException e) {
      // A backend that cannot be created as configured is unavailable, never a weaker one;
      // a request that names it fails closed with this reason.
      unavailable.put(id, e.code() + ": " + e.getMessage());
    }
  }

  private static BackendUnavailableException duplicate(String id) {
    return new BackendUnavailableException(
        BackendUnavailableException.DUPLICATE,
        "the backend id '" + id + "' was registered twice; pass each backend once");
  }

  /**
   * The backend to launch with: {@code id} when given; else the sandbox {@link BackendSelection}
   * chooses among the available backends for {@code required}; else, only when {@code
   * allowUnisolated}, the strongest fitting backend that is not a sandbox.
   *
   * @throws BackendUnavailableException before anything is launched when none fits: {@code
   *     ISOLATION_UNAVAILABLE} naming every backend and what it lacks or why it is unavailable
   */
  public synchronized SelectedBackend select(Optional<String> id, Set<IsolationCapability> required, boolean allowUnisolated) {
    if (id.isPresent()) {
      probe(id.get());
      ExecutionBackend backend = byId(id.get());
      Set<IsolationCapability> missing = missing(backend, required);
      if (!missing.isEmpty()) {
        throw new BackendUnavailableException(
            BackendUnavailableException.ISOLATION_UNAVAILABLE,
            "backend '" + backend.id() + "' cannot supply " + missing
                + " on this machine; run 'capability doctor' to see what each backend supplies, or choose another backend");
      }
      return new SelectedBackend(backend, Attestation.Backend.Choice.NAMED, "named by the request");
    }
    probeAll();
    Optional<ExecutionBackend> sandbox = BackendSelection.strongest(available.values(), required);
    if (sandbox.isPresent()) {
      return new SelectedBackend(sandbox.get(), Attestation.Backend.Choice.STRONGEST_SANDBOX,
          "the strongest available sandbox" + (required.isEmpty() ? "" : " that supplies " + sorted(required)));
    }
    Optional<ExecutionBackend> unisolated = BackendSelection.strongestUnisolated(available.values(), required);
    if (unisolated.isPresent() && allowUnisolated) {
      return new SelectedBackend(unisolated.get(), Attestation.Backend.Choice.UNISOLATED_FALLBACK,
          "no sandbox fits (" + describeAll(required) + ") and the operator policy allows the unisolated fallback"
              + " (allowUnisolatedFallback)");
    }
    String remedy = unisolated.isPresent()
        ? "; install or repair a sandbox ('capability doctor' shows why each backend is unavailable), name a backend"
            + " (--backend), or set \"allowUnisolatedFallback\": true in the operator policy to run without a sandbox"
        : "; run 'capability doctor' to see what each backend supplies and why one is unavailable";
    throw new BackendUnavailableException(
        BackendUnavailableException.ISOLATION_UNAVAILABLE,
        (required.isEmpty() ? "no sandbox is available" : "no available sandbox supplies every required capability " + sorted(required))
            + (unisolated.isPresent() ? ", and the operator policy does not allow running without one" : "")
            + ": " + describeAll(required) + remedy);
  }

  private ExecutionBackend byId(String id) {
    ExecutionBackend backend = available.get(id);
    if (backend != null) {
      return backend;
    }
    if (unavailable.containsKey(id)) {
      throw new BackendUnavailableException(
          BackendUnavailableException.UNAVAILABLE,
          "backend '" + id + "' is not available on this machine: " + unavailable.get(id));
    }
    throw new BackendUnavailableException(
        BackendUnavailableException.UNKNOWN,
        "no backend with id '" + id + "' is on the class path (known: " + knownIds()
            + "); add the jar capability-backend-" + id + " to use it");
  }

  private static Set<IsolationCapability> missing(ExecutionBackend backend, Set<IsolationCapability> required) {
    Set<IsolationCapability> missing = EnumSet.noneOf(IsolationCapability.class);
    missing.addAll(required);
    missing.removeAll(backend.capabilities());
    return missing;
  }

  /** Every backend and why it does not fit: what it lacks, that it is not a sandbox, or why it is unavailable. */
  private String describeAll(Set<IsolationCapability> required) {
    List<String> descriptions = new ArrayList<>();
    for (ExecutionBackend backend : available.values()) {
      boolean sandbox = BackendSelection.isSandbox(backend.capabilities());
      Set<IsolationCapability> lacks = missing(backend, required);
      if (!sandbox) {
        lacks.addAll(missing(backend, BackendSelection.SANDBOX));
      }
      descriptions.add(backend.id() + " (" + (sandbox ? "a sandbox" : "not a sandbox")
          + (lacks.isEmpty() ? "" : ", lacks " + sorted(lacks)) + ")");
    }
    unavailable.forEach((id, reason) -> descriptions.add(id + " (unavailable: " + reason + ")"));
    return descriptions.isEmpty() ? "no backend is on the class path" : String.join("; ", descriptions);
  }

  private static List<String> sorted(Set<IsolationCapability> capabilities) {
    return capabilities.stream().map(Enum::name).sorted().toList();
  }

  private List<String> knownIds() {
    return new ArrayList<>(ids());
  }

  /** One status per backend, available ones first; probes every provider not probed yet. */
  public synchronized List<BackendStatus> statuses() {
    probeAll();
    List<BackendStatus> statuses = new ArrayList<>();
    available.values().forEach(b -> statuses.add(
        new BackendStatus(b.id(), true, "available", b.capabilities(), b.diagnostics())));
    unavailable.forEach((id, reason) -> statuses.add(
        new BackendStatus(id, false, reason, Set.of(), Map.of())));
    return statuses;
  }

  @Override
  public synchronized void close() {
    closed = true;
    available.values().forEach(ExecutionBackend::close);
  }

  /** Closes every backend but {@code kept}, which its new owner closes. */
  public void closeAllBut(ExecutionBackend kept) {
    closeAllBut(List.of(kept));
  }

  /** Closes every backend but those in {@code kept} (by identity), which their owners close. */
  public synchronized void closeAllBut(List<ExecutionBackend> kept) {
    closed = true;
    available.values().stream()
        .filter(backend -> kept.stream().noneMatch(k -> k == backend))
        .forEach(ExecutionBackend::close);
  }
}
