package dev.capability.kernel.api.network;

/** The stable codes of {@link EgressConnection#reason()}. */
public final class EgressRefusal {
  /** The requested {@code host:port} is not granted. */
  public static final String NOT_GRANTED = "EGRESS_NOT_GRANTED";
  /** An IP literal was requested and is not granted as such. */
  public static final String IP_LITERAL = "EGRESS_IP_LITERAL";
  /**
   * A granted name resolved to a loopback, private, link-local, unique-local, multicast,
   * unspecified or metadata address, and the name is not an operator-allowed private name.
   */
  public static final String FORBIDDEN_ADDRESS = "EGRESS_FORBIDDEN_ADDRESS";
  /** The granted name did not resolve. */
  public static final String UNRESOLVED = "EGRESS_UNRESOLVED";
  /** The request was not HTTP, CONNECT or SOCKS5 CONNECT, or could not be parsed. */
  public static final String MALFORMED = "EGRESS_MALFORMED";
  /** The request head was larger than the run's limit. */
  public static final String HEADER_TOO_LARGE = "EGRESS_HEADER_TOO_LARGE";
  /** The run's connection count, concurrency or byte budget was spent. */
  public static final String LIMIT = "EGRESS_LIMIT";
  /** The client did not finish its request in the handshake time. */
  public static final String HANDSHAKE_TIMEOUT = "EGRESS_HANDSHAKE_TIMEOUT";
  /** A granted destination refused, timed out or reset the connection ({@code FAILED}). */
  public static final String CONNECT_FAILED = "EGRESS_CONNECT_FAILED";

  private EgressRefusal() {}
}
