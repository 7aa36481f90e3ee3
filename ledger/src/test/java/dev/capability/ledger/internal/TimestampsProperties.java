package dev.capability.ledger.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

class TimestampsProperties {
  /** 9999-12-31T23:59:59Z. */
  private static final long MAX_SECOND = 253_402_300_799L;

  @Property
  void textOrderIsTimeOrderAndTheTextIsFixedWidth(
      @ForAll @LongRange(min = 0, max = MAX_SECOND) long s1, @ForAll @LongRange(min = 0, max = 999_999_999) long n1,
      @ForAll @LongRange(min = 0, max = MAX_SECOND) long s2, @ForAll @LongRange(min = 0, max = 999_999_999) long n2) {
    Instant a = Instant.ofEpochSecond(s1, n1).truncatedTo(ChronoUnit.MICROS);
    Instant b = Instant.ofEpochSecond(s2, n2).truncatedTo(ChronoUnit.MICROS);
    String ta = Timestamps.format(a);
    String tb = Timestamps.format(b);
    assertThat(ta).hasSize(27).endsWith("Z");
    assertThat(Integer.signum(ta.compareTo(tb))).isEqualTo(Integer.signum(a.compareTo(b)));
    assertThat(Instant.parse(ta)).isEqualTo(a);
  }
}
