package dev.capability.backend.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Network;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The host's IPv4 addresses on the daemon's default bridge network, which a container must not
 * reach. Daemons differ in what they report: some list the gateway in the network's IPAM
 * configuration, others (a 20.10 daemon started by hand) only its subnet. The bridge interface
 * itself, named by the network's {@value #BRIDGE_NAME} option ({@value #DEFAULT_BRIDGE} when the
 * option is missing), carries the address on every Linux daemon; both sources are used, and
 * finding neither fails the test that needs them, naming what was looked at.
 */
final class BridgeAddresses {
  static final String BRIDGE_NAME = "com.docker.network.bridge.name";
  static final String DEFAULT_BRIDGE = "docker0";

  private BridgeAddresses() {}

  /**
   * Every IPv4 address of the host on the default bridge, IPAM gateways first.
   *
   * @throws AssertionError when the daemon reports no gateway and no bridge interface on this
   *     host has an IPv4 address
   */
  static List<String> of(DockerClient client) {
    Network bridge = client.inspectNetworkCmd().withNetworkId("bridge").exec();
    Set<String> addresses = new LinkedHashSet<>(ipamGateways(bridge));
    String name =
        Optional.ofNullable(bridge.getOptions()).map(o -> o.get(BRIDGE_NAME)).orElse(DEFAULT_BRIDGE);
    addresses.addAll(interfaceAddresses(name));
    if (addresses.isEmpty()) {
      throw new AssertionError(
          "cannot find the host's address on the docker bridge: the bridge network's IPAM config "
              + bridge.getIpam().getConfig()
              + " names no IPv4 gateway, and the interface "
              + name
              + " (its "
              + BRIDGE_NAME
              + " option) has no IPv4 address on this host");
    }
    return List.copyOf(addresses);
  }

  private static List<String> ipamGateways(Network bridge) {
    if (bridge.getIpam() == null || bridge.getIpam().getConfig() == null) {
      return List.of();
    }
    return bridge.getIpam().getConfig().stream()
        .map(Network.Ipam.Config::getGateway)
        .filter(gateway -> gateway != null && gateway.contains("."))
        .toList();
  }

  private static List<String> interfaceAddresses(String name) {
    try {
      NetworkInterface bridge = NetworkInterface.getByName(name);
      if (bridge == null) {
        return List.of();
      }
      return Collections.list(bridge.getInetAddresses()).stream()
          .filter(Inet4Address.class::isInstance)
          .map(InetAddress::getHostAddress)
          .toList();
    } catch (SocketException e) {
      throw new AssertionError("cannot read the network interface " + name + ": " + e, e);
    }
  }
}
