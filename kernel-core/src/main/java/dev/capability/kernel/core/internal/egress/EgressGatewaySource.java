package dev.capability.kernel.core.internal.egress;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.network.EgressGateway;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import dev.capability.kernel.api.plugin.Plugins;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where a kernel gets the {@link EgressGateway} of its filtered-network runs: the instance the host
 * gave, or the one provider on the class path, looked up the first time a run needs it (a kernel
 * that never runs with filtered network never loads one). Without exactly one, filtered network is
 * unavailable, and says why. Thread-safe.
 */
public final class EgressGatewaySource {
  private final @Nullable ClassLoader loader;
  private @Nullable EgressGateway gateway;
  private @Nullable NetworkFilterUnavailableException unavailable;

  private EgressGatewaySource(@Nullable EgressGateway gateway, @Nullable ClassLoader loader) {
    this.gateway = gateway;
    this.loader = loader;
  }

  /** The gateway {@code gateway}, given by hand. */
  public static EgressGatewaySource of(EgressGateway gateway) {
    return new EgressGatewaySource(Objects.requireNonNull(gateway, "gateway"), null);
  }

  /** The one {@link EgressGateway} provider {@code loader} can see, found when first asked for. */
  public static EgressGatewaySource discover(ClassLoader loader) {
    return new EgressGatewaySource(null, Objects.requireNonNull(loader, "loader"));
  }

  /**
   * The gateway.
   *
   * @throws NetworkFilterUnavailableException when none is installed, several are, or one cannot
   *     be loaded
   */
  public synchronized EgressGateway require() {
    if (gateway != null) {
      return gateway;
    }
    if (unavailable == null) {
      try {
        gateway = load(Objects.requireNonNull(loader, "loader"));
        return gateway;
      } catch (NetworkFilterUnavailableException e) {
        unavailable = e;
      }
    }
    throw new NetworkFilterUnavailableException(unavailable.getMessage(), unavailable.getCause());
  }

  private static EgressGateway load(ClassLoader loader) {
    Map<String, EgressGateway> gateways;
    try {
      gateways = Plugins.load(EgressGateway.class, EgressGateway::id, loader);
    } catch (CapabilityException e) {
      throw new NetworkFilterUnavailableException("the egress gateway cannot be loaded: " + e.getMessage(), e);
    }
    if (gateways.isEmpty()) {
      throw new NetworkFilterUnavailableException(
          "no egress gateway is installed; add the jar capability-egress-proxy to the class path for filtered network");
    }
    if (gateways.size() > 1) {
      throw new NetworkFilterUnavailableException(
          "several egress gateways are installed " + gateways.keySet() + "; keep one on the class path, or pass one to"
              + " CommandKernel.Builder.egressGateway");
    }
    return gateways.values().iterator().next();
  }
}
