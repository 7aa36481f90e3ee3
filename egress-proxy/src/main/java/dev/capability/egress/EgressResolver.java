package dev.capability.egress;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Resolves the names a run asks its proxy for. The proxy calls it on every connection, never
 * caches its answer and checks every address it returns, so a resolver cannot widen what the
 * rules allow: it only decides where a granted name leads. Tests and embedders inject one to send
 * a test name to a server on loopback (which the rules must then allow for that name).
 */
@FunctionalInterface
public interface EgressResolver {
  /**
   * The addresses of {@code host}, a lower-case name that is not an IP literal; empty when it has
   * none. Called off the proxy's event loop, so it may block.
   */
  List<InetAddress> resolve(String host);

  /** The system's resolver ({@link InetAddress#getAllByName}). */
  static EgressResolver system() {
    return host -> {
      try {
        return List.of(InetAddress.getAllByName(host));
      } catch (UnknownHostException e) {
        return List.of();
      }
    };
  }
}
