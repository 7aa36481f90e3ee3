package dev.capability.egress.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The classifier against an oracle written differently: a table of CIDR blocks, matched with
 * big-integer prefixes, over random addresses and random addresses inside every listed block.
 */
class AddressClassifierProperties {
  private record Block(BigInteger network, int prefix, int bits, AddressClass kind) {
    boolean contains(BigInteger address, int addressBits) {
      return addressBits == bits && address.shiftRight(bits - prefix).equals(network.shiftRight(bits - prefix));
    }
  }

  private static final List<Block> IPV4 = List.of(
      block("0.0.0.0/8", AddressClass.NEVER),
      block("224.0.0.0/3", AddressClass.NEVER),
      block("127.0.0.0/8", AddressClass.PRIVATE),
      block("10.0.0.0/8", AddressClass.PRIVATE),
      block("172.16.0.0/12", AddressClass.PRIVATE),
      block("192.168.0.0/16", AddressClass.PRIVATE),
      block("100.64.0.0/10", AddressClass.PRIVATE),
      block("169.254.0.0/16", AddressClass.PRIVATE),
      block("192.0.0.0/24", AddressClass.PRIVATE),
      block("198.18.0.0/15", AddressClass.PRIVATE));

  private static final List<Block> IPV6 = List.of(
      block("::/128", AddressClass.NEVER),
      block("ff00::/8", AddressClass.NEVER),
      block("::1/128", AddressClass.PRIVATE),
      block("fc00::/7", AddressClass.PRIVATE),
      block("fe80::/10", AddressClass.PRIVATE),
      block("fec0::/10", AddressClass.PRIVATE));

  /** IPv6 blocks that carry an IPv4 address, and where it starts. */
  private static final List<Block> CARRIERS = List.of(
      block("::ffff:0:0/96", AddressClass.PUBLIC), block("64:ff9b::/96", AddressClass.PUBLIC),
      block("::/96", AddressClass.PUBLIC), block("2002::/16", AddressClass.PUBLIC));

  private static Block block(String cidr, AddressClass kind) {
    String[] parts = cidr.split("/");
    byte[] bytes = parse(parts[0]).getAddress();
    return new Block(new BigInteger(1, bytes), Integer.parseInt(parts[1]), bytes.length * 8, kind);
  }

  private static InetAddress parse(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(e);
    }
  }

  static AddressClass oracle(byte[] bytes) {
    BigInteger value = new BigInteger(1, bytes);
    int bits = bytes.length * 8;
    if (bits == 128 && !value.equals(BigInteger.ZERO) && !value.equals(BigInteger.ONE)) {
      for (Block carrier : CARRIERS) {
        if (carrier.contains(value, bits)) {
          int start = carrier.prefix() == 16 ? 2 : 12;
          return oracle(Arrays.copyOfRange(bytes, start, start + 4));
        }
      }
    }
    for (Block block : bits == 32 ? IPV4 : IPV6) {
      if (block.contains(value, bits)) {
        return block.kind();
      }
    }
    return AddressClass.PUBLIC;
  }

  @Property(tries = 2000)
  void everyIpv4AddressIsClassifiedAsTheTableSays(@ForAll("ipv4") byte[] bytes) throws UnknownHostException {
    assertThat(AddressClassifier.classify(InetAddress.getByAddress(bytes))).isEqualTo(oracle(bytes));
  }

  @Property(tries = 4000)
  void everyIpv6AddressIsClassifiedAsTheTableSays(@ForAll("ipv6") byte[] bytes) throws UnknownHostException {
    AddressClass expected = oracle(bytes);
    assertThat(AddressClassifier.classify(Inet6Address.getByAddress(null, bytes, -1))).isEqualTo(expected);
    // Java turns an IPv4-mapped address into IPv4; the class must not change with the form.
    assertThat(AddressClassifier.classify(InetAddress.getByAddress(bytes))).isEqualTo(expected);
  }

  @Example
  void theCloudMetadataAddressAndItsMappedFormArePrivate() {
    assertThat(AddressClassifier.classify(parse("169.254.169.254"))).isEqualTo(AddressClass.PRIVATE);
    assertThat(AddressClassifier.classify(parse("::ffff:169.254.169.254"))).isEqualTo(AddressClass.PRIVATE);
    assertThat(AddressClassifier.classify(parse("64:ff9b::a9fe:a9fe"))).isEqualTo(AddressClass.PRIVATE);
    assertThat(AddressClassifier.classify(parse("8.8.8.8"))).isEqualTo(AddressClass.PUBLIC);
    assertThat(AddressClassifier.classify(parse("2606:4700::1111"))).isEqualTo(AddressClass.PUBLIC);
    assertThat(AddressClassifier.classify(parse("255.255.255.255"))).isEqualTo(AddressClass.NEVER);
  }

  @Provide
  Arbitrary<byte[]> ipv4() {
    Arbitrary<byte[]> anywhere = Arbitraries.integers().map(AddressClassifierProperties::ipv4Bytes);
    Arbitrary<byte[]> inABlock = Arbitraries.of(IPV4).flatMap(AddressClassifierProperties::inside);
    return Arbitraries.oneOf(anywhere, inABlock);
  }

  @Provide
  Arbitrary<byte[]> ipv6() {
    Arbitrary<byte[]> anywhere = Arbitraries.bytes().array(byte[].class).ofSize(16);
    Arbitrary<byte[]> inABlock = Arbitraries.of(IPV6).flatMap(AddressClassifierProperties::inside);
    Arbitrary<byte[]> carried = Arbitraries.of(CARRIERS).flatMap(carrier -> ipv4().map(v4 -> carry(carrier, v4)));
    Arbitrary<byte[]> lowAddresses = Arbitraries.integers().between(0, 300).map(low -> {
      byte[] bytes = new byte[16];
      bytes[14] = (byte) (low >> 8);
      bytes[15] = (byte) (int) low;
      return bytes;
    });
    return Arbitraries.oneOf(anywhere, inABlock, carried, lowAddresses);
  }

  private static Arbitrary<byte[]> inside(Block block) {
    int bytes = block.bits() / 8;
    return Arbitraries.bytes().array(byte[].class).ofSize(bytes).map(random -> {
      BigInteger hostMask = BigInteger.ONE.shiftLeft(block.bits() - block.prefix()).subtract(BigInteger.ONE);
      BigInteger value = block.network().or(new BigInteger(1, random).and(hostMask));
      return toBytes(value, bytes);
    });
  }

  private static byte[] carry(Block carrier, byte[] ipv4) {
    byte[] bytes = toBytes(carrier.network(), 16);
    System.arraycopy(ipv4, 0, bytes, carrier.prefix() == 16 ? 2 : 12, 4);
    return bytes;
  }

  private static byte[] ipv4Bytes(int value) {
    return ByteBuffer.allocate(4).putInt(value).array();
  }

  private static byte[] toBytes(BigInteger value, int length) {
    byte[] raw = value.toByteArray();
    byte[] bytes = new byte[length];
    int copy = Math.min(raw.length, length);
    System.arraycopy(raw, raw.length - copy, bytes, length - copy, copy);
    return bytes;
  }
}
