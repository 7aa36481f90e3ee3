package dev.capability.capability.runtime;

import java.util.Objects;

/**
 * An effect the capability attempted beyond its grants, which the boundary refused and the host
 * observed: today a connection the run's egress proxy refused.
 *
 * @param kind the effect attempted, {@link EffectKind#NETWORK_CONNECT}
 * @param target what it tried to reach, as it asked: {@code host:port} (IPv6 in brackets), or
 *     what could be read of a malformed request
 * @param code why it was refused, a stable code ({@code EGRESS_NOT_GRANTED}, {@code
 *     EGRESS_IP_LITERAL}, {@code EGRESS_FORBIDDEN_ADDRESS}, ...; see {@link
 *     dev.capability.kernel.api.network.EgressRefusal})
 * @param detail how it asked ({@code http}, {@code connect} or {@code socks5}) and what was
 *     refused, for a person
 */
public record EffectViolation(EffectKind kind, String target, String code, String detail) {
  public EffectViolation {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(detail, "detail");
  }
}
