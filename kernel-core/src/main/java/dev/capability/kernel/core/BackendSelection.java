package dev.capability.kernel.core;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.core.internal.backend.BackendDiscovery;
import dev.capability.kernel.core.internal.backend.BackendRegistry;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The one rule by which a backend is chosen when none is named, for {@code exec} and for
 * {@code run}/{@code plan} alike: among the available backends that supply every required
 * isolation capability, the one with the most verified capabilities; between equals, the id that
 * sorts first. What is required is the caller's: {@code exec} requires what the policy and the
 * request require (and a network namespace when the network is {@code none}); the child-JVM
 * executor requires a sandbox, which the unisolated {@code process} backend never supplies. No
 * fitting backend is an error before anything is launched, never a weaker backend.
 */
public final class BackendSelection {
  private static final Comparator<ExecutionBackend> STRENGTH =
      Comparator.<ExecutionBackend>comparingInt(backend -> backend.capabilities().size())
          .thenComparing(ExecutionBackend::id, Comparator.reverseOrder());

  private BackendSelection() {}

  /** The strongest of {@code available} that supplies every {@code required} capability, or empty. */
  public static Optional<ExecutionBackend> strongest(
      Collection<ExecutionBackend> available, Set<IsolationCapability> required) {
    Objects.requireNonNull(available, "available");
    Objects.requireNonNull(required, "required");
    return available.stream()
        .filter(backend -> backend.capabilities().containsAll(required))
        .max(STRENGTH);
  }

  /**
   * Probes every backend provider visible to {@code classLoader}, creates the available ones with
   * {@code config}, and keeps the one {@link #strongest} chooses for {@code required}; the others
   * are closed. The caller owns, and closes, the backend returned.
   *
   * @throws BackendUnavailableException {@code ISOLATION_UNAVAILABLE} naming every backend and
   *     what it supplies or why it is unavailable, when none fits
   */
  public static ExecutionBackend select(
      ClassLoader classLoader, BackendConfig config, Set<IsolationCapability> required) {
    Objects.requireNonNull(classLoader, "classLoader");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(required, "required");
    BackendRegistry registry =
        BackendRegistry.create(BackendDiscovery.discover(classLoader), List.of(), config);
    ExecutionBackend chosen;
    try {
      chosen = registry.select(Optional.empty(), required);
    } catch (RuntimeException e) {
      registry.close();
      throw e;
    }
    registry.closeAllBut(chosen);
    return chosen;
  }
}
