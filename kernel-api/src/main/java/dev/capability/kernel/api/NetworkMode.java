package dev.capability.kernel.api;

/** What network a launched command may reach. */
public enum NetworkMode {
  /** No network at all; requires a backend with {@code NETWORK_NAMESPACE}. */
  NONE,
  /** The host's network, unchanged. */
  HOST
}
