package dev.capability.capability.runtime.internal.exec;

import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.EffectKind;
import dev.capability.capability.runtime.EffectViolation;
import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.network.EgressRefusal;
import java.util.List;
import java.util.Objects;

/**
 * What a run's egress records (the kernel's {@link dev.capability.kernel.api.Attestation#egress()},
 * written by the host-owned proxy) say about its {@code network.connect} effects: which grants were
 * used and which attempts were refused. These are the host's observations, not the child's claims.
 */
final class EgressEvidence {
  private EgressEvidence() {}

  /**
   * The granted {@code network.connect} effects to which the proxy relayed at least one connection,
   * in grant order. An attempt that was allowed but could not connect ({@code FAILED}) relayed
   * nothing and does not count.
   */
  static List<Effect> used(List<Effect> granted, List<EgressConnection> egress) {
    return granted.stream()
        .filter(effect -> effect.kind() == EffectKind.NETWORK_CONNECT)
        .filter(effect -> {
          EgressDestination destination = EgressDestination.parse(effect.scope());
          return egress.stream()
              .anyMatch(connection -> connection.outcome() == EgressConnection.Outcome.ALLOWED
                  && connection.port() == destination.port()
                  && connection.host().equals(destination.host()));
        })
        .toList();
  }

  /** Every attempt the proxy refused, in the order the attempts began. */
  static List<EffectViolation> violations(List<EgressConnection> egress) {
    return egress.stream()
        .filter(connection -> connection.outcome() == EgressConnection.Outcome.REFUSED)
        .map(EgressEvidence::violation)
        .toList();
  }

  private static EffectViolation violation(EgressConnection connection) {
    String target = connection.host().isEmpty() && connection.port() == 0 ? "(unreadable request)" : connection.destination();
    // EgressConnection gives every refusal a reason.
    String code = Objects.requireNonNull(connection.reason(), "reason");
    String detail = connection.protocol() + " to " + target + " refused by the egress proxy: " + why(code)
        + (connection.address() == null ? "" : " (" + connection.address() + ")");
    return new EffectViolation(EffectKind.NETWORK_CONNECT, target, code, detail);
  }

  private static String why(String code) {
    return switch (code) {
      case EgressRefusal.NOT_GRANTED -> "not a granted network.connect scope";
      case EgressRefusal.IP_LITERAL -> "an IP address that was not granted as such";
      case EgressRefusal.FORBIDDEN_ADDRESS ->
          "the name resolved to a loopback, private, link-local or metadata address, and is not an operator-allowed private name";
      case EgressRefusal.UNRESOLVED -> "the name did not resolve";
      case EgressRefusal.MALFORMED -> "not a request the proxy could read (HTTP, CONNECT or SOCKS5 CONNECT)";
      case EgressRefusal.HEADER_TOO_LARGE -> "the request head was over the run's limit";
      case EgressRefusal.LIMIT -> "the run's connection, concurrency or byte budget was spent";
      case EgressRefusal.HANDSHAKE_TIMEOUT -> "the request was not finished within the handshake time";
      default -> code;
    };
  }
}
