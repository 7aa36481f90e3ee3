package dev.capability.kernel.api.network;

import dev.capability.kernel.api.CapabilityException;
import org.jspecify.annotations.Nullable;

/**
 * Filtered network was asked for and cannot be supplied: no {@link EgressGateway} is installed, the
 * proxy could not start, or the chosen backend cannot confine a run to the proxy. Raised before
 * anything is launched, never answered with a wider or narrower network.
 */
public final class NetworkFilterUnavailableException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  /** The code of every instance. */
  public static final String CODE = "NETWORK_FILTER_UNAVAILABLE";

  public NetworkFilterUnavailableException(String message) {
    super(CODE, message);
  }

  public NetworkFilterUnavailableException(String message, @Nullable Throwable cause) {
    super(CODE, message, cause);
  }
}
