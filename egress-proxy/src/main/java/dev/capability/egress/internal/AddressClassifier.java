package dev.capability.egress.internal;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Classifies destination addresses. An IPv6 address that carries an IPv4 address (IPv4-mapped,
 * IPv4-compatible, NAT64 {@code 64:ff9b::/96} or 6to4 {@code 2002::/16}) is classified by the IPv4
 * address it carries, since that is where a connection to it may end up.
 */
final class AddressClassifier {
  private AddressClassifier() {}

  static AddressClass classify(InetAddress address) {
    byte[] bytes = address.getAddress();
    return address instanceof Inet4Address ? classifyIpv4(bytes) : classifyIpv6(bytes);
  }

  private static AddressClass classifyIpv4(byte[] bytes) {
    int a = bytes[0] & 0xff;
    int b = bytes[1] & 0xff;
    int c = bytes[2] & 0xff;
    if (a == 0 || a >= 224) {
      return AddressClass.NEVER; // 0/8 ("this network", 0.0.0.0), 224/4 multicast, 240/4 reserved, broadcast
    }
    boolean isPrivate = a == 127
        || a == 10
        || (a == 172 && (b & 0xf0) == 16)
        || (a == 192 && b == 168)
        || (a == 100 && (b & 0xc0) == 64) // 100.64/10 shared address space (CGNAT)
        || (a == 169 && b == 254) // link-local, 169.254.169.254 cloud metadata among it
        || (a == 192 && b == 0 && c == 0) // 192.0.0/24 IETF protocol assignments
        || (a == 198 && (b & 0xfe) == 18); // 198.18/15 network benchmarking
    return isPrivate ? AddressClass.PRIVATE : AddressClass.PUBLIC;
  }

  private static AddressClass classifyIpv6(byte[] bytes) {
    byte[] embedded = embeddedIpv4(bytes);
    if (embedded != null) {
      return classifyIpv4(embedded);
    }
    int first = bytes[0] & 0xff;
    int second = bytes[1] & 0xff;
    if (first == 0xff || isZeroUpTo(bytes, 16)) {
      return AddressClass.NEVER; // ff00::/8 multicast, :: unspecified
    }
    boolean isPrivate = (isZeroUpTo(bytes, 15) && bytes[15] == 1) // ::1 loopback
        || (first & 0xfe) == 0xfc // fc00::/7 unique-local, fd00::/8 among it
        || (first == 0xfe && (second & 0xc0) == 0x80) // fe80::/10 link-local
        || (first == 0xfe && (second & 0xc0) == 0xc0); // fec0::/10 deprecated site-local
    return isPrivate ? AddressClass.PRIVATE : AddressClass.PUBLIC;
  }

  /** The IPv4 address an IPv6 address carries, or null. */
  private static byte @Nullable [] embeddedIpv4(byte[] bytes) {
    boolean mapped = isZeroUpTo(bytes, 10) && bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
    // ::a.b.c.d, but not :: (unspecified) or ::1 (loopback), which are IPv6's own
    boolean compatible = isZeroUpTo(bytes, 12) && !(isZeroUpTo(bytes, 15) && (bytes[15] == 0 || bytes[15] == 1));
    boolean nat64 = bytes[0] == 0x00 && bytes[1] == 0x64 && bytes[2] == (byte) 0xff && bytes[3] == (byte) 0x9b
        && isZeroBetween(bytes, 4, 12);
    if (mapped || compatible || nat64) {
      return Arrays.copyOfRange(bytes, 12, 16);
    }
    if (bytes[0] == 0x20 && bytes[1] == 0x02) {
      return Arrays.copyOfRange(bytes, 2, 6); // 6to4
    }
    return null;
  }

  private static boolean isZeroUpTo(byte[] bytes, int end) {
    return isZeroBetween(bytes, 0, end);
  }

  private static boolean isZeroBetween(byte[] bytes, int start, int end) {
    for (int i = start; i < end; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
