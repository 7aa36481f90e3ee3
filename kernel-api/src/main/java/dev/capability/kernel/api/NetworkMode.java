package dev.capability.kernel.api;

/** What network a launched command may reach. */
public enum NetworkMode {
  /** No network at all; requires a backend with {@code NETWORK_NAMESPACE}. */
  NONE,
  /**
   * Only the granted {@code host:port} destinations, through the host's per-run egress proxy (see
   * {@link dev.capability.kernel.api.network}): the command has no network of its own, no route and
   * no DNS; requires a backend with {@code FILTERED_EGRESS}.
   */
  FILTERED,
  /** The host's network, unchanged. */
  HOST
}
