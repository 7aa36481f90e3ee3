package dev.capability.egress;

import dev.capability.egress.internal.ProxySession;
import dev.capability.kernel.api.network.EgressGateway;
import dev.capability.kernel.api.network.EgressRules;
import dev.capability.kernel.api.network.EgressSession;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The egress proxy built on Netty, id {@code netty}: each {@link #open} starts a proxy on a Unix
 * socket of its own that speaks HTTP (plain requests with an absolute URI, and {@code CONNECT})
 * and SOCKS5, and lets a run reach exactly the destinations its {@link EgressRules} grant. See
 * {@code docs/egress.md}.
 */
public final class NettyEgressGateway implements EgressGateway {
  private final EgressResolver resolver;
  private final Path socketParent;

  /** Resolves names with the system's DNS; sockets under {@code java.io.tmpdir}. */
  public NettyEgressGateway() {
    this(EgressResolver.system());
  }

  /** Resolves names with {@code resolver}; sockets under {@code java.io.tmpdir}. */
  public NettyEgressGateway(EgressResolver resolver) {
    this(resolver, Path.of(System.getProperty("java.io.tmpdir")));
  }

  /**
   * Resolves names with {@code resolver}; each session's socket in a new directory under {@code
   * socketParent}, which must be short enough for a Unix socket path (about 100 bytes in all).
   */
  public NettyEgressGateway(EgressResolver resolver, Path socketParent) {
    this.resolver = Objects.requireNonNull(resolver, "resolver");
    this.socketParent = Objects.requireNonNull(socketParent, "socketParent");
  }

  @Override
  public String id() {
    return "netty";
  }

  @Override
  public EgressSession open(EgressRules rules) {
    return ProxySession.open(Objects.requireNonNull(rules, "rules"), resolver, socketParent);
  }
}
