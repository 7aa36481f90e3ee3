package dev.capability.backend.bwrap.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BoundedOutputTest {
  @Test
  void keepsUpToTheBoundAndSignalsTheFirstExcessOnce() throws Exception {
    AtomicInteger exceeded = new AtomicInteger();
    BoundedOutput output =
        new BoundedOutput(
            new ByteArrayInputStream(new byte[100_000]), 1000, exceeded::incrementAndGet);
    output.run();

    assertThat(output.awaitEnd(Duration.ZERO)).isTrue();
    assertThat(output.exceeded()).isTrue();
    assertThat(output.captured().size()).isEqualTo(1000);
    assertThat(output.captured().truncated()).isTrue();
    assertThat(exceeded).hasValue(1);
  }

  @Test
  void keepsEverythingUnderTheBound() {
    BoundedOutput output =
        new BoundedOutput(new ByteArrayInputStream("hello".getBytes()), 5, () -> {});
    output.run();

    assertThat(output.captured().text()).isEqualTo("hello");
    assertThat(output.captured().truncated()).isFalse();
    assertThat(output.exceeded()).isFalse();
  }
}
