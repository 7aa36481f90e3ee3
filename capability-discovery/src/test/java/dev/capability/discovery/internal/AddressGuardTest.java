package dev.capability.discovery.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.discovery.DiscoveryCodes;
import dev.capability.discovery.IndexRefusedException;
import dev.capability.discovery.NetworkAccess;
import java.net.InetAddress;
import java.net.URI;
import org.junit.jupiter.api.Test;

class AddressGuardTest {
  private static final URI URL = URI.create("https://index.example.org/i.json");

  private static AddressGuard answering(NetworkAccess access, String... addresses) {
    return new AddressGuard(access, host -> {
      InetAddress[] answer = new InetAddress[addresses.length];
      for (int i = 0; i < addresses.length; i++) {
        answer[i] = InetAddress.getByName(addresses[i]);
      }
      return answer;
    });
  }

  @Test
  void oneNonPublicAddressAmongPublicOnesRefusesTheHost() {
    AddressGuard guard = answering(NetworkAccess.publicHttpsOnly(), "93.184.216.34", "10.0.0.7", "2606:2800:220:1::1");

    assertThatThrownBy(() -> guard.resolve(URL))
        .isInstanceOf(IndexRefusedException.class)
        .hasMessageContaining("10.0.0.7")
        .extracting(e -> ((IndexRefusedException) e).code()).isEqualTo(DiscoveryCodes.INDEX_ADDRESS_REFUSED);
  }

  @Test
  void theLoopbackAllowanceDoesNotOpenMetadataAddresses() {
    AddressGuard guard = answering(NetworkAccess.loopbackForTests(), "127.0.0.1", "169.254.169.254");

    assertThatThrownBy(() -> guard.resolve(URL))
        .extracting(e -> ((IndexRefusedException) e).code()).isEqualTo(DiscoveryCodes.INDEX_ADDRESS_REFUSED);
  }

  @Test
  void returnsTheCheckedAddressToConnectTo() {
    AddressGuard guard = answering(NetworkAccess.publicHttpsOnly(), "93.184.216.34", "93.184.216.35");

    assertThat(guard.resolve(URL).getHostAddress()).isEqualTo("93.184.216.34");
  }

  @Test
  void anEmptyAnswerIsUnreachable() {
    AddressGuard guard = answering(NetworkAccess.publicHttpsOnly());

    assertThatThrownBy(() -> guard.resolve(URL))
        .extracting(e -> ((IndexRefusedException) e).code()).isEqualTo(DiscoveryCodes.INDEX_UNREACHABLE);
  }
}
