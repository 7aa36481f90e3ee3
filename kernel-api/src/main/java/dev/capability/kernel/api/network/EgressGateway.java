package dev.capability.kernel.api.network;

/**
 * Opens per-run egress proxies: the service the kernel uses for a run whose network is {@link
 * dev.capability.kernel.api.NetworkMode#FILTERED}. Implementations are found with {@link
 * dev.capability.kernel.api.plugin.Plugins}; without one, filtered network is unavailable
 * ({@link NetworkFilterUnavailableException}).
 */
public interface EgressGateway {
  /** A stable id, lower-case letters, digits and {@code -}, such as {@code netty}. */
  String id();

  /**
   * Starts a proxy that enforces {@code rules} and listens on a new Unix socket.
   *
   * @throws NetworkFilterUnavailableException when the proxy cannot be started
   */
  EgressSession open(EgressRules rules);
}
