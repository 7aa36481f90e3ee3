package dev.capability.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AddressClassTest {
  @ParameterizedTest
  @CsvSource({
      "127.0.0.1, LOOPBACK", "127.255.0.9, LOOPBACK", "::1, LOOPBACK", "::ffff:127.0.0.1, LOOPBACK",
      "10.0.0.1, PRIVATE", "172.16.0.1, PRIVATE", "172.31.255.255, PRIVATE", "192.168.0.1, PRIVATE",
      "169.254.169.254, PRIVATE", "100.64.0.1, PRIVATE", "0.0.0.0, PRIVATE", "224.0.0.1, PRIVATE",
      "255.255.255.255, PRIVATE", "fd00::1, PRIVATE", "fc00::1, PRIVATE", "fe80::1, PRIVATE", "::, PRIVATE",
      "ff02::1, PRIVATE", "::ffff:10.0.0.1, PRIVATE", "64:ff9b::a9fe:a9fe, PRIVATE", "2002:a00:1::1, PRIVATE",
      "2001:db8::1, PRIVATE",
      "8.8.8.8, PUBLIC", "172.32.0.1, PUBLIC", "100.128.0.1, PUBLIC", "2606:4700::1111, PUBLIC", "64:ff9b::808:808, PUBLIC"
  })
  void classifiesAddresses(String literal, AddressClass expected) throws UnknownHostException {
    assertThat(AddressClass.of(InetAddress.getByName(literal))).isEqualTo(expected);
  }
}
