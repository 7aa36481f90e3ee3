package dev.capability.kernel.core;

import dev.capability.kernel.api.backend.IsolationCapability;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the kernel found about one backend on this machine, for {@code capability doctor}.
 *
 * @param id the backend id
 * @param available whether its probe succeeded and it was created
 * @param reason the probe's description or why it is unavailable
 * @param capabilities the capabilities it verified here; empty when unavailable
 * @param diagnostics facts and reasons for missing capabilities, from the backend itself
 */
public record BackendStatus(
    String id,
    boolean available,
    String reason,
    Set<IsolationCapability> capabilities,
    Map<String, String> diagnostics) {

  public BackendStatus {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(reason, "reason");
    capabilities = Set.copyOf(capabilities);
    diagnostics = Map.copyOf(diagnostics);
  }

  /**
   * Whether it is available here and a sandbox ({@link BackendSelection#SANDBOX}), so that the
   * automatic choice may take it without the policy's {@code allowUnisolatedFallback}.
   */
  public boolean sandbox() {
    return available && BackendSelection.isSandbox(capabilities);
  }
}
