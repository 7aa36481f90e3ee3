package dev.capability.kernel.core;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.core.internal.backend.BackendDiscovery;
import dev.capability.kernel.core.internal.backend.BackendRegistry;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The kernel's backend registry, for what launches through a kernel of its own (the child-JVM
 * capability executor): the same providers, found the same way ({@link
 * dev.capability.kernel.api.plugin.Plugins}, so two with one id fail naming both classes), chosen
 * by the same rule ({@link BackendSelection}) as for {@code exec}.
 *
 * <p>Providers are found, and duplicates refused, when the registry is made; each is probed, and
 * created when available, at most once and only when needed: asking for a backend by id probes
 * that one alone, the automatic choice and the statuses probe them all. Whoever
 * makes a registry closes it, which closes every backend it created (never backends given to it).
 * Thread-safe.
 */
public final class Backends implements AutoCloseable {
  private final Map<String, BackendProvider> providers;
  private final List<ExecutionBackend> given;
  private final BackendConfig config;
  private @Nullable BackendRegistry registry;
  private boolean closed;

  private Backends(Map<String, BackendProvider> providers, List<ExecutionBackend> given, BackendConfig config) {
    this.providers = providers;
    this.given = given;
    this.config = config;
  }

  /**
   * Every backend provider on the class path of {@code loader}, created with {@code config}.
   *
   * @throws BackendUnavailableException {@code BACKEND_DUPLICATE} naming both classes when two
   *     providers claim one id
   */
  public static Backends discover(ClassLoader loader, BackendConfig config) {
    return new Backends(
        BackendDiscovery.discover(Objects.requireNonNull(loader, "loader")), List.of(), Objects.requireNonNull(config, "config"));
  }

  /**
   * Only {@code providers}, created with {@code config}: a host that decides which backends may be
   * used, whatever else is on the class path.
   *
   * @throws BackendUnavailableException {@code BACKEND_DUPLICATE} naming both classes when two
   *     providers claim one id
   */
  public static Backends of(List<BackendProvider> providers, BackendConfig config) {
    return new Backends(
        BackendDiscovery.byId(List.copyOf(Objects.requireNonNull(providers, "providers"))), List.of(), Objects.requireNonNull(config, "config"));
  }

  /** Backends the host created; the registry uses them as they are and never closes them. */
  public static Backends given(List<ExecutionBackend> backends) {
    return new Backends(Map.of(), List.copyOf(Objects.requireNonNull(backends, "backends")), BackendConfig.defaults());
  }

  /**
   * The backend to launch with when none is named, by the kernel's rule: the strongest available
   * sandbox that supplies {@code required}; else, only when {@code allowUnisolated}, the strongest
   * fitting backend that is not a sandbox.
   *
   * @throws BackendUnavailableException {@code ISOLATION_UNAVAILABLE} naming every backend and why
   *     it does not fit, when none does
   */
  public ExecutionBackend select(Set<IsolationCapability> required, boolean allowUnisolated) {
    Objects.requireNonNull(required, "required");
    return registry().select(Optional.empty(), required, allowUnisolated).backend();
  }

  /**
   * The backend named {@code id}, which must supply {@code required}.
   *
   * @throws BackendUnavailableException {@code BACKEND_UNKNOWN}, {@code BACKEND_UNAVAILABLE} for a
   *     backend that is not there or cannot run here; {@code ISOLATION_UNAVAILABLE} when it cannot
   *     supply {@code required}
   */
  public ExecutionBackend select(String id, Set<IsolationCapability> required) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(required, "required");
    return registry().select(Optional.of(id), required, false).backend();
  }

  /** The id of every backend this registry knows, without probing any. */
  public Set<String> ids() {
    return Set.copyOf(registry().ids());
  }

  /** One status per backend, available ones first; probes the providers not probed yet. */
  public List<BackendStatus> statuses() {
    return registry().statuses();
  }

  private synchronized BackendRegistry registry() {
    if (closed) {
      throw new IllegalStateException("the backend registry is closed");
    }
    if (registry == null) {
      registry = BackendRegistry.create(providers, given, config);
    }
    return registry;
  }

  /** Closes every backend this registry created; backends given to it stay open. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (registry != null) {
      registry.closeAllBut(given);
    }
  }
}
