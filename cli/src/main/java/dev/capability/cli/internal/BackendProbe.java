package dev.capability.cli.internal;

import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What one probe of a backend learned, as kept in the probe cache.
 *
 * @param id the backend id
 * @param identity the digest of what the backend's result depends on ({@link BackendIdentity}) when it was probed
 * @param available whether it was available and could be created
 * @param reason why it is unavailable; empty when available
 * @param capabilities the capabilities it verified; empty when unavailable
 * @param versions what it reported of the versions of what enforces it
 * @param diagnostics its facts and reasons for missing capabilities
 */
record BackendProbe(
    String id,
    String identity,
    boolean available,
    String reason,
    Set<IsolationCapability> capabilities,
    Map<String, String> versions,
    Map<String, String> diagnostics) {

  BackendProbe {
    capabilities = capabilities.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(capabilities));
    versions = Map.copyOf(new TreeMap<>(versions));
    diagnostics = Map.copyOf(new TreeMap<>(diagnostics));
  }

  static BackendProbe of(String identity, ExecutionBackend backend) {
    return new BackendProbe(backend.id(), identity, true, "", backend.capabilities(), backend.versions(), backend.diagnostics());
  }

  static BackendProbe unavailable(String id, String identity, String reason) {
    return new BackendProbe(id, identity, false, reason, Set.of(), Map.of(), Map.of());
  }

  /** The stand-in a decision selects from, when the backend was available. */
  Optional<ProbedBackend> backend() {
    return available ? Optional.of(new ProbedBackend(id, capabilities, versions, diagnostics)) : Optional.empty();
  }
}
