package dev.capability.discovery;

/**
 * Which network destinations the operator allows for discovery and imported servers. The default
 * ({@link #publicHttpsOnly()}) allows HTTPS to public addresses only: no plain HTTP, no loopback,
 * and no private, link-local, unique-local, shared, multicast or reserved address.
 *
 * @param allowHttp plain {@code http} URLs are accepted
 * @param allowLoopback loopback addresses ({@code 127.0.0.0/8}, {@code ::1}) are accepted
 * @param allowPrivate every other non-public address is accepted (never needed outside a lab)
 */
public record NetworkAccess(boolean allowHttp, boolean allowLoopback, boolean allowPrivate) {

  /** HTTPS to public addresses only. */
  public static NetworkAccess publicHttpsOnly() {
    return new NetworkAccess(false, false, false);
  }

  /** HTTP or HTTPS to loopback or public addresses: for tests against a local server. */
  public static NetworkAccess loopbackForTests() {
    return new NetworkAccess(true, true, false);
  }
}
