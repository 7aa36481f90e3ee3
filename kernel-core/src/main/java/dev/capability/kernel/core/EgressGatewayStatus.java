package dev.capability.kernel.core;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Whether an egress gateway (the host-side proxy of filtered network) is installed, as {@link
 * CommandKernel#probeEgressGateway} found it.
 *
 * @param id the gateway's id when one is installed, null otherwise
 * @param reason why none can be used; empty when one is installed
 */
public record EgressGatewayStatus(@Nullable String id, String reason) {
  public EgressGatewayStatus {
    Objects.requireNonNull(reason, "reason");
    if ((id == null) == reason.isEmpty()) {
      throw new IllegalArgumentException("a reason is given exactly when no gateway is installed");
    }
  }

  /** Whether a gateway is installed and loads. */
  public boolean installed() {
    return id != null;
  }
}
