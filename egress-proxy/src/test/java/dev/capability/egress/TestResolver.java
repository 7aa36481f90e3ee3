package dev.capability.egress;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;

/** Resolves the tests' names to fixed addresses, as an operator's injected resolver would. */
final class TestResolver implements EgressResolver {
  private final Map<String, List<InetAddress>> addresses;

  TestResolver(Map<String, List<InetAddress>> addresses) {
    this.addresses = addresses;
  }

  @Override
  public List<InetAddress> resolve(String host) {
    return addresses.getOrDefault(host, List.of());
  }

  static InetAddress address(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(literal, e);
    }
  }

  /** An IPv6 address kept as such, even when it is an IPv4-mapped one Java would turn into IPv4. */
  static InetAddress ipv6(byte... bytes) {
    try {
      return Inet6Address.getByAddress(null, bytes, -1);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
