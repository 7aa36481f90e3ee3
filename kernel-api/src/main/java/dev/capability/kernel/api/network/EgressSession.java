package dev.capability.kernel.api.network;

import java.nio.file.Path;
import java.util.List;

/**
 * One run's egress proxy, listening on a Unix socket. Open one per run with {@link
 * EgressGateway#open}; close it after the run, which closes every relayed connection and removes
 * the socket.
 */
public interface EgressSession extends AutoCloseable {
  /**
   * The proxy's Unix socket on the host, in a directory only the caller's user can traverse; the
   * socket itself is connectable by any user, so a sandbox running under another uid (a Docker
   * container's {@code nobody}) can use it once a backend binds it in. It speaks HTTP (plain
   * requests with an absolute URI, and CONNECT) and SOCKS5, told apart by the first byte.
   */
  Path socket();

  /** Every attempt so far, in the order they began; byte counts of open connections still grow. */
  List<EgressConnection> connections();

  /** Stops the proxy, closes its connections and removes the socket and its directory. */
  @Override
  void close();
}
