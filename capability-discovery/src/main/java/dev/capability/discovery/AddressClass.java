package dev.capability.discovery;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.jspecify.annotations.Nullable;

/**
 * Sorts an IP address into public, loopback or private (every other address a public index or
 * server has no business pointing at: RFC 1918, shared 100.64/10, link-local including cloud
 * metadata at 169.254.169.254, unique-local fc00::/7, site-local, unspecified, multicast,
 * benchmarking, documentation and reserved ranges). IPv6 forms that embed an IPv4 address
 * (mapped, compatible, NAT64, 6to4) are judged by that address.
 */
public enum AddressClass {
  PUBLIC,
  LOOPBACK,
  PRIVATE;

  /** Whether {@code access} lets a connection reach an address of this class. */
  public boolean allowedBy(dev.capability.discovery.NetworkAccess access) {
    return switch (this) {
      case PUBLIC -> true;
      case LOOPBACK -> access.allowLoopback();
      case PRIVATE -> access.allowPrivate();
    };
  }

  public static AddressClass of(InetAddress address) {
    if (address instanceof Inet6Address six) {
      byte[] bytes = six.getAddress();
      InetAddress embedded = embeddedIpv4(bytes);
      if (embedded != null) {
        return of(embedded);
      }
      if (six.isLoopbackAddress()) {
        return LOOPBACK;
      }
      int first = bytes[0] & 0xff;
      if (six.isAnyLocalAddress() || six.isLinkLocalAddress() || six.isSiteLocalAddress() || six.isMulticastAddress()
          || (first & 0xfe) == 0xfc // fc00::/7 unique local
          || (first == 0x20 && (bytes[1] & 0xff) == 0x01 && (bytes[2] & 0xff) == 0x0d && (bytes[3] & 0xff) == 0xb8) // 2001:db8::/32
          || (first == 0x01 && allZero(bytes, 1, 8)) // 100::/64 discard
          || first == 0) {
        return PRIVATE;
      }
      return PUBLIC;
    }
    Inet4Address four = (Inet4Address) address;
    byte[] b = four.getAddress();
    int a0 = b[0] & 0xff;
    int a1 = b[1] & 0xff;
    int a2 = b[2] & 0xff;
    if (a0 == 127) {
      return LOOPBACK;
    }
    boolean nonPublic =
        a0 == 0
            || a0 == 10
            || (a0 == 100 && a1 >= 64 && a1 <= 127)
            || (a0 == 169 && a1 == 254)
            || (a0 == 172 && a1 >= 16 && a1 <= 31)
            || (a0 == 192 && a1 == 0 && a2 == 0)
            || (a0 == 192 && a1 == 0 && a2 == 2)
            || (a0 == 192 && a1 == 168)
            || (a0 == 198 && (a1 == 18 || a1 == 19))
            || (a0 == 198 && a1 == 51 && a2 == 100)
            || (a0 == 203 && a1 == 0 && a2 == 113)
            || a0 >= 224;
    return nonPublic ? PRIVATE : PUBLIC;
  }

  private static @Nullable InetAddress embeddedIpv4(byte[] b) {
    boolean mapped = allZero(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
    boolean compatible = allZero(b, 0, 12) && !(allZero(b, 12, 15) && (b[15] == 0 || b[15] == 1));
    boolean nat64 = (b[0] & 0xff) == 0x00 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b && allZero(b, 4, 12);
    if (mapped || compatible || nat64) {
      return ipv4(b[12], b[13], b[14], b[15]);
    }
    if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02) { // 2002::/16 6to4
      return ipv4(b[2], b[3], b[4], b[5]);
    }
    return null;
  }

  private static InetAddress ipv4(byte a, byte b, byte c, byte d) {
    try {
      return InetAddress.getByAddress(new byte[] {a, b, c, d});
    } catch (UnknownHostException e) {
      throw new IllegalStateException("four bytes are always an IPv4 address", e);
    }
  }

  private static boolean allZero(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
