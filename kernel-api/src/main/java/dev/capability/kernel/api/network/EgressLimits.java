package dev.capability.kernel.api.network;

import java.time.Duration;
import java.util.Objects;

/**
 * What one run may spend through its egress proxy. Past a bound the proxy refuses or closes the
 * connection and records why; it never blocks the run.
 *
 * @param maxConnections connection attempts per run, refused ones included
 * @param maxConcurrentConnections connections open at once
 * @param maxHeaderBytes the bytes of one HTTP request head (request line and headers)
 * @param maxBytes bytes relayed per run, both directions together
 * @param handshakeTimeout how long a client may take to send its whole request head or SOCKS
 *     greeting: a slow client is closed after it
 * @param connectTimeout how long the proxy waits for a destination to accept
 * @param idleTimeout how long a relayed connection may stay silent in both directions
 */
public record EgressLimits(
    int maxConnections,
    int maxConcurrentConnections,
    int maxHeaderBytes,
    long maxBytes,
    Duration handshakeTimeout,
    Duration connectTimeout,
    Duration idleTimeout) {

  /** 256 attempts, 32 at once, 16 KiB heads, 1 GiB, 10 s handshake, 10 s connect, 120 s idle. */
  public static final EgressLimits DEFAULT =
      new EgressLimits(
          256, 32, 16 * 1024, 1L << 30, Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(120));

  public EgressLimits {
    requirePositive(maxConnections, "maxConnections");
    requirePositive(maxConcurrentConnections, "maxConcurrentConnections");
    requirePositive(maxHeaderBytes, "maxHeaderBytes");
    requirePositive(maxBytes, "maxBytes");
    requirePositive(handshakeTimeout, "handshakeTimeout");
    requirePositive(connectTimeout, "connectTimeout");
    requirePositive(idleTimeout, "idleTimeout");
  }

  private static void requirePositive(long value, String name) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
  }

  private static void requirePositive(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
  }
}
