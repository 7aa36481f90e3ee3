package dev.capability.capability.runtime.internal.exec;

import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.EffectKind;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.network.EgressSandbox;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The network one run of the child JVM gets from its {@code network.connect} grants: none without
 * one, and otherwise {@link NetworkMode#FILTERED} egress to exactly the granted {@code host:port}
 * scopes through the kernel's egress proxy, never the host network.
 *
 * @param destinations the granted scopes, in grant order
 * @param privateAddressNames the operator's private-address names that are hosts of {@code
 *     destinations}: only those may resolve to loopback or private addresses in this run
 */
record NetworkGrant(List<EgressDestination> destinations, Set<String> privateAddressNames) {
  /**
   * The JVM options that send the child's networking through the in-sandbox relay of the proxy:
   * HTTP and HTTPS ({@code HttpClient}, {@code HttpURLConnection}) as proxy requests and CONNECT,
   * every other socket through SOCKS5, which sends the host name when the address is unresolved.
   * The non-proxy lists are set empty, so that no name (not even {@code localhost}) goes direct: the
   * JDK's default lists send loopback names around the proxy.
   */
  static final List<String> PROXY_OPTIONS = List.of(
      "-Dhttp.proxyHost=" + EgressSandbox.PROXY_HOST,
      "-Dhttp.proxyPort=" + EgressSandbox.PROXY_PORT,
      "-Dhttps.proxyHost=" + EgressSandbox.PROXY_HOST,
      "-Dhttps.proxyPort=" + EgressSandbox.PROXY_PORT,
      "-Dhttp.nonProxyHosts=",
      "-DsocksProxyHost=" + EgressSandbox.PROXY_HOST,
      "-DsocksProxyPort=" + EgressSandbox.PROXY_PORT,
      "-DsocksProxyVersion=5",
      "-DsocksNonProxyHosts=");

  NetworkGrant {
    destinations = List.copyOf(new LinkedHashSet<>(Objects.requireNonNull(destinations, "destinations")));
    privateAddressNames = Set.copyOf(Objects.requireNonNull(privateAddressNames, "privateAddressNames"));
  }

  /**
   * The network of a run granted {@code granted}, with the operator's {@code operatorPrivateNames}
   * narrowed to the hosts this run was granted.
   */
  static NetworkGrant of(List<Effect> granted, Set<String> operatorPrivateNames) {
    List<EgressDestination> destinations = new ArrayList<>();
    for (Effect effect : granted) {
      if (effect.kind() == EffectKind.NETWORK_CONNECT) {
        // The scope grammar is stricter than the destination's, so every granted scope parses.
        destinations.add(EgressDestination.parse(effect.scope()));
      }
    }
    Set<String> privateNames = new TreeSet<>();
    for (String name : operatorPrivateNames) {
      String lower = name.toLowerCase(Locale.ROOT);
      if (destinations.stream().anyMatch(destination -> destination.host().equals(lower))) {
        privateNames.add(lower);
      }
    }
    return new NetworkGrant(destinations, privateNames);
  }

  /** Whether anything was granted: the run then needs filtered egress. */
  boolean filtered() {
    return !destinations.isEmpty();
  }

  /**
   * Sets the policy's network: filtered egress to the grants, on a backend that supplies {@link
   * IsolationCapability#FILTERED_EGRESS}; without a grant none, or, on a
   * backend that cannot take the network away ({@code isolated} false), the host network it really
   * has, which the attestation then says.
   */
  void applyTo(ExecutionPolicy.Builder policy, boolean isolated) {
    if (filtered()) {
      policy.network(NetworkMode.FILTERED)
          .egressAllowed(destinations)
          .egressPrivateAddressNames(privateAddressNames)
          .require(IsolationCapability.FILTERED_EGRESS);
    } else {
      policy.network(isolated ? NetworkMode.NONE : NetworkMode.HOST);
    }
  }

  /** The child JVM's options for this network: {@link #PROXY_OPTIONS} when filtered, none otherwise. */
  List<String> jvmOptions() {
    return filtered() ? PROXY_OPTIONS : List.of();
  }
}
