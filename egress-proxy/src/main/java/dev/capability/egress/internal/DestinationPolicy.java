package dev.capability.egress.internal;

import dev.capability.egress.EgressResolver;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.network.EgressRefusal;
import dev.capability.kernel.api.network.EgressRules;
import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Applies a session's {@link EgressRules} to one requested {@code host:port}: the name must be
 * granted (an IP literal granted as such), and the address it leads to must not be forbidden. Names
 * are resolved here, on every request, so that a name which resolved to a public address a moment
 * ago and to a private one now (DNS rebinding) is refused now.
 */
final class DestinationPolicy {
  private final EgressRules rules;
  private final EgressResolver resolver;

  DestinationPolicy(EgressRules rules, EgressResolver resolver) {
    this.rules = rules;
    this.resolver = resolver;
  }

  /**
   * What the rules alone say about {@code host:port}, without resolving: a refusal, the literal
   * address to connect to, or null for a granted name, which {@link #resolve} then decides.
   */
  @Nullable Verdict check(String host, int port) {
    String name = host.toLowerCase(Locale.ROOT);
    InetAddress literal = literal(name);
    if (literal != null) {
      return decideLiteral(literal, port);
    }
    if (name.indexOf(':') >= 0 || name.indexOf('%') >= 0) {
      return Verdict.refuse(EgressRefusal.IP_LITERAL, null); // an IPv6 literal with a zone, or malformed
    }
    if (!rules.allows(name, port)) {
      return Verdict.refuse(EgressRefusal.NOT_GRANTED, null);
    }
    return null;
  }

  /**
   * Where a granted name leads: resolved now (it may block), to the first address that is not
   * forbidden for it.
   */
  Verdict resolve(String host) {
    String name = host.toLowerCase(Locale.ROOT);
    List<InetAddress> addresses = addresses(name);
    if (addresses.isEmpty()) {
      return Verdict.fail(EgressRefusal.UNRESOLVED);
    }
    boolean privateAllowed = rules.privateAddressNames().contains(name);
    for (InetAddress address : addresses) {
      AddressClass kind = AddressClassifier.classify(address);
      if (kind == AddressClass.PUBLIC || (kind == AddressClass.PRIVATE && privateAllowed)) {
        return Verdict.connect(address);
      }
    }
    return Verdict.refuse(EgressRefusal.FORBIDDEN_ADDRESS, addresses.get(0));
  }

  private Verdict decideLiteral(InetAddress literal, int port) {
    boolean granted = rules.allowed().stream()
        .filter(EgressDestination::isIpLiteral)
        .anyMatch(d -> d.port() == port && literal.equals(literal(d.host())));
    if (!granted) {
      return Verdict.refuse(EgressRefusal.IP_LITERAL, literal);
    }
    if (AddressClassifier.classify(literal) != AddressClass.PUBLIC) {
      return Verdict.refuse(EgressRefusal.FORBIDDEN_ADDRESS, literal);
    }
    return Verdict.connect(literal);
  }

  private List<InetAddress> addresses(String name) {
    List<InetAddress> addresses;
    try {
      addresses = resolver.resolve(name);
    } catch (RuntimeException e) {
      return List.of();
    }
    return addresses == null ? List.of() : addresses.stream().filter(a -> a != null).toList();
  }

  /** The address an IP literal (IPv6 with or without brackets) denotes, without DNS; else null. */
  static @Nullable InetAddress literal(String host) {
    String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    if (bare.indexOf('%') >= 0) {
      return null;
    }
    return NetUtil.createInetAddressFromIpAddressString(bare);
  }
}
