package dev.capability.kernel.api.network;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One connection attempt a run made through its egress proxy, as the proxy saw it.
 *
 * @param protocol how it asked: {@code http} (a plain request with an absolute URI), {@code
 *     connect} (HTTP CONNECT) or {@code socks5}
 * @param host the host it asked for, as asked (lower-cased); for a malformed request, what could
 *     be read of it, or empty
 * @param port the port it asked for; 0 when none could be read
 * @param outcome allowed, refused by the rules or a limit, or allowed but failed to connect
 * @param reason for a refusal or failure, a stable code from {@link EgressRefusal}; null when
 *     allowed
 * @param address the address the proxy resolved and connected (or would have connected) to, when
 *     it resolved one
 * @param bytesSent bytes relayed from the run to the destination
 * @param bytesReceived bytes relayed from the destination to the run
 */
public record EgressConnection(
    String protocol,
    String host,
    int port,
    Outcome outcome,
    @Nullable String reason,
    @Nullable String address,
    long bytesSent,
    long bytesReceived) {

  /** What became of an attempt. */
  public enum Outcome {
    /** The destination was granted and reached. */
    ALLOWED,
    /** The proxy refused it: not granted, a forbidden address, a malformed request, or a limit. */
    REFUSED,
    /** The destination was granted but could not be reached. */
    FAILED
  }

  public EgressConnection {
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(outcome, "outcome");
    if ((outcome == Outcome.ALLOWED) != (reason == null)) {
      throw new IllegalArgumentException("a reason is given exactly when the outcome is not ALLOWED");
    }
    if (bytesSent < 0 || bytesReceived < 0) {
      throw new IllegalArgumentException("byte counts must not be negative");
    }
  }

  /** {@code host:port} as asked, IPv6 in brackets. */
  public String destination() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}
