package dev.capability.capability.runtime.internal.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.capability.runtime.Effect;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NetworkGrantTest {
  private static ExecutionPolicy policy(NetworkGrant grant, boolean isolated) {
    ExecutionPolicy.Builder builder = ExecutionPolicy.builder();
    grant.applyTo(builder, isolated);
    return builder.build();
  }

  @Test
  void grantedScopesBecomeFilteredEgressToExactlyThoseDestinations() {
    NetworkGrant grant =
        NetworkGrant.of(
            List.of(Effect.of("filesystem.read", "data"), Effect.of("network.connect", "api.example.com:443"),
                Effect.of("network.connect", "[2001:db8::1]:8443")),
            Set.of());

    ExecutionPolicy policy = policy(grant, true);

    assertThat(policy.network()).isEqualTo(NetworkMode.FILTERED);
    assertThat(policy.egressAllowed())
        .containsExactly(new EgressDestination("api.example.com", 443), new EgressDestination("2001:db8::1", 8443));
    assertThat(policy.requiredCapabilities()).contains(IsolationCapability.FILTERED_EGRESS);
    assertThat(policy.egressPrivateAddressNames()).isEmpty();
  }

  @Test
  void aGrantIsFilteredEvenOnABackendThatCannotTakeTheNetworkAway() {
    NetworkGrant grant = NetworkGrant.of(List.of(Effect.of("network.connect", "api.example.com:443")), Set.of());

    ExecutionPolicy policy = policy(grant, false);

    assertThat(policy.network()).as("never the host network").isEqualTo(NetworkMode.FILTERED);
    assertThat(policy.requiredCapabilities()).contains(IsolationCapability.FILTERED_EGRESS);
  }

  @Test
  void withoutAGrantASandboxHasNoNetworkAndTheProcessBackendTheHostsItCannotRemove() {
    NetworkGrant grant = NetworkGrant.of(List.of(Effect.of("filesystem.read", "data")), Set.of("svc.test"));

    assertThat(grant.filtered()).isFalse();
    assertThat(policy(grant, true).network()).isEqualTo(NetworkMode.NONE);
    assertThat(policy(grant, false).network()).isEqualTo(NetworkMode.HOST);
    assertThat(grant.jvmOptions()).isEmpty();
    assertThat(grant.privateAddressNames()).as("no grant, no private name").isEmpty();
  }

  @Test
  void theOperatorsPrivateAddressNamesApplyOnlyToTheHostsThisRunWasGranted() {
    NetworkGrant grant =
        NetworkGrant.of(List.of(Effect.of("network.connect", "svc.test:8080")), Set.of("svc.test", "git.internal", "127.0.0.1"));

    assertThat(grant.privateAddressNames()).containsExactly("svc.test");
    assertThat(policy(grant, true).egressPrivateAddressNames()).containsExactly("svc.test");
  }

  @Test
  void theChildJvmIsPointedAtTheInSandboxRelayForHttpHttpsAndSocksWithNothingBypassingIt() {
    NetworkGrant grant = NetworkGrant.of(List.of(Effect.of("network.connect", "svc.test:8080")), Set.of());

    assertThat(grant.jvmOptions())
        .contains(
            "-Dhttp.proxyHost=127.0.0.1", "-Dhttp.proxyPort=3128", "-Dhttps.proxyHost=127.0.0.1", "-Dhttps.proxyPort=3128",
            "-DsocksProxyHost=127.0.0.1", "-DsocksProxyPort=3128", "-DsocksProxyVersion=5")
        .contains("-Dhttp.nonProxyHosts=", "-DsocksNonProxyHosts=");
  }
}
