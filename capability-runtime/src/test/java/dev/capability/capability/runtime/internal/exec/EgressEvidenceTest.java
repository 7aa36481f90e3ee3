package dev.capability.capability.runtime.internal.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.EffectKind;
import dev.capability.capability.runtime.EffectViolation;
import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.network.EgressConnection.Outcome;
import dev.capability.kernel.api.network.EgressRefusal;
import java.util.List;
import org.junit.jupiter.api.Test;

class EgressEvidenceTest {
  private static final Effect SERVICE = Effect.of("network.connect", "svc.test:8080");
  private static final Effect IDLE = Effect.of("network.connect", "idle.test:443");
  private static final Effect NOTES = Effect.of("filesystem.write", "notes");

  @Test
  void aGrantCountsAsUsedWhenTheProxyRelayedAConnectionToIt() {
    List<EgressConnection> egress =
        List.of(
            new EgressConnection("http", "svc.test", 8080, Outcome.ALLOWED, null, "127.0.0.1", 120, 4096),
            new EgressConnection("connect", "idle.test", 443, Outcome.FAILED, EgressRefusal.CONNECT_FAILED, "203.0.113.7", 0, 0));

    assertThat(EgressEvidence.used(List.of(NOTES, SERVICE, IDLE), egress))
        .as("a failed attempt relayed nothing; a write grant is not the proxy's to judge")
        .containsExactly(SERVICE);
  }

  @Test
  void aRefusedAttemptIsNotAUseOfTheGrantWithTheSameName() {
    List<EgressConnection> egress =
        List.of(new EgressConnection("socks5", "svc.test", 8080, Outcome.REFUSED, EgressRefusal.FORBIDDEN_ADDRESS, "10.0.0.1", 0, 0));

    assertThat(EgressEvidence.used(List.of(SERVICE), egress)).isEmpty();
  }

  @Test
  void everyRefusedAttemptIsAViolationNamingItsTargetAndCodeInOrder() {
    List<EgressConnection> egress =
        List.of(
            new EgressConnection("http", "svc.test", 8080, Outcome.ALLOWED, null, "127.0.0.1", 120, 4096),
            new EgressConnection("socks5", "127.0.0.1", 8080, Outcome.REFUSED, EgressRefusal.IP_LITERAL, null, 0, 0),
            new EgressConnection("connect", "other.test", 80, Outcome.REFUSED, EgressRefusal.NOT_GRANTED, null, 0, 0),
            new EgressConnection("http", "private.test", 8080, Outcome.REFUSED, EgressRefusal.FORBIDDEN_ADDRESS, "10.0.0.1", 0, 0),
            new EgressConnection("http", "", 0, Outcome.REFUSED, EgressRefusal.MALFORMED, null, 0, 0),
            new EgressConnection("connect", "svc.test", 8080, Outcome.FAILED, EgressRefusal.CONNECT_FAILED, "127.0.0.1", 0, 0));

    List<EffectViolation> violations = EgressEvidence.violations(egress);

    assertThat(violations).extracting(EffectViolation::target, EffectViolation::code)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("127.0.0.1:8080", EgressRefusal.IP_LITERAL),
            org.assertj.core.groups.Tuple.tuple("other.test:80", EgressRefusal.NOT_GRANTED),
            org.assertj.core.groups.Tuple.tuple("private.test:8080", EgressRefusal.FORBIDDEN_ADDRESS),
            org.assertj.core.groups.Tuple.tuple("(unreadable request)", EgressRefusal.MALFORMED));
    assertThat(violations).allSatisfy(violation -> assertThat(violation.kind()).isEqualTo(EffectKind.NETWORK_CONNECT));
    assertThat(violations.get(2).detail()).startsWith("http to private.test:8080 refused by the egress proxy").contains("(10.0.0.1)");
  }
}
