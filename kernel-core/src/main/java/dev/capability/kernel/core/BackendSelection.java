package dev.capability.kernel.core;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.core.internal.backend.BackendDiscovery;
import dev.capability.kernel.core.internal.backend.BackendRegistry;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The one rule by which a backend is chosen when none is named, for {@code exec} and for
 * {@code run}/{@code plan} alike: among the available <em>sandboxes</em> that supply every
 * required isolation capability, the one with the most verified capabilities; between equals, the
 * id that sorts first. What is required is the caller's: {@code exec} requires what the policy and
 * the request require (and a network namespace when the network is {@code none}); the child-JVM
 * executor requires more of a sandbox. No fitting sandbox is an error before anything is launched,
 * never a weaker backend; only an operator policy that says {@code allowUnisolatedFallback} lets
 * {@code exec} fall back to a backend that is not a sandbox, and the attestation then says why.
 */
public final class BackendSelection {
  /**
   * What makes a backend a sandbox: it verified on this machine that the command cannot see or
   * signal host processes ({@code PID_NAMESPACE}), cannot write the host's files outside what is
   * mounted writable for it ({@code READ_ONLY_ROOT}), and never runs with real-root authority over
   * host files ({@code NON_ROOT}). The {@code process} backend supplies none of them.
   */
  public static final Set<IsolationCapability> SANDBOX = Collections.unmodifiableSet(EnumSet.of(
      IsolationCapability.PID_NAMESPACE, IsolationCapability.READ_ONLY_ROOT, IsolationCapability.NON_ROOT));

  private static final Comparator<ExecutionBackend> STRENGTH =
      Comparator.<ExecutionBackend>comparingInt(backend -> backend.capabilities().size())
          .thenComparing(ExecutionBackend::id, Comparator.reverseOrder());

  private BackendSelection() {}

  /** Whether a backend with these verified capabilities is a sandbox ({@link #SANDBOX}). */
  public static boolean isSandbox(Set<IsolationCapability> capabilities) {
    return capabilities.containsAll(SANDBOX);
  }

  /** The strongest sandbox of {@code available} that supplies every {@code required} capability, or empty. */
  public static Optional<ExecutionBackend> strongest(
      Collection<ExecutionBackend> available, Set<IsolationCapability> required) {
    return strongest(available, required, true);
  }

  /**
   * The strongest backend of {@code available} that is not a sandbox and supplies every {@code
   * required} capability, or empty: what an operator's {@code allowUnisolatedFallback} lets run when
   * {@link #strongest} finds nothing.
   */
  public static Optional<ExecutionBackend> strongestUnisolated(
      Collection<ExecutionBackend> available, Set<IsolationCapability> required) {
    return strongest(available, required, false);
  }

  private static Optional<ExecutionBackend> strongest(
      Collection<ExecutionBackend> available, Set<IsolationCapability> required, boolean sandbox) {
    Objects.requireNonNull(available, "available");
    Objects.requireNonNull(required, "required");
    return available.stream()
        .filter(backend -> isSandbox(backend.capabilities()) == sandbox)
        .filter(backend -> backend.capabilities().containsAll(required))
        .max(STRENGTH);
  }

  /**
   * Probes every backend provider visible to {@code classLoader}, creates the available ones with
   * {@code config}, and keeps the sandbox {@link #strongest} chooses for {@code required}; the
   * others are closed. Never falls back to a backend that is not a sandbox. The caller owns, and
   * closes, the backend returned.
   *
   * @throws BackendUnavailableException {@code ISOLATION_UNAVAILABLE} naming every backend and
   *     what it lacks or why it is unavailable, when no sandbox fits
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
      chosen = registry.select(Optional.empty(), required, false).backend();
    } catch (RuntimeException e) {
      registry.close();
      throw e;
    }
    registry.closeAllBut(chosen);
    return chosen;
  }
}
