package dev.capability.backend.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.CapturedOutput;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BoundedOutputTest {
  private final AtomicInteger limitCalls = new AtomicInteger();

  private BoundedOutput collect(InputStream in, long max) {
    BoundedOutput collector = new BoundedOutput(in, max, limitCalls::incrementAndGet);
    collector.run();
    return collector;
  }

  @Test
  void keepsAStreamOfExactlyTheBoundWhole() {
    byte[] data = randomBytes(100_000);

    CapturedOutput output = collect(new ByteArrayInputStream(data), data.length).captured();

    assertThat(output.bytes()).isEqualTo(data);
    assertThat(output.truncated()).isFalse();
    assertThat(limitCalls).hasValue(0);
  }

  @Test
  void keepsTheFirstBytesAndDrainsTheRestWhenOverTheBound() {
    byte[] data = randomBytes(1_000_001);
    ByteArrayInputStream in = new ByteArrayInputStream(data);

    BoundedOutput collector = collect(in, 1000);

    CapturedOutput output = collector.captured();
    assertThat(output.bytes()).isEqualTo(Arrays.copyOf(data, 1000));
    assertThat(output.truncated()).isTrue();
    assertThat(collector.limitExceeded()).isTrue();
    assertThat(limitCalls).hasValue(1);
    assertThat(in.available()).isZero();
  }

  @Test
  void keepsEverythingUnderTheBoundAndReachesTheEnd() throws InterruptedException {
    BoundedOutput output = collect(new ByteArrayInputStream("hello".getBytes()), 5);

    assertThat(output.awaitEnd(Duration.ZERO)).isTrue();
    assertThat(output.captured().text()).isEqualTo("hello");
    assertThat(output.captured().truncated()).isFalse();
    assertThat(output.limitExceeded()).isFalse();
  }

  @Test
  void closesTheStreamOnceReadToItsEnd() {
    AtomicInteger closes = new AtomicInteger();
    InputStream in =
        new ByteArrayInputStream(new byte[10]) {
          @Override
          public void close() {
            closes.incrementAndGet();
          }
        };

    collect(in, 100);

    assertThat(closes).hasValue(1);
  }

  @Test
  void refusesABoundThatKeepsNothing() {
    assertThatThrownBy(() -> new BoundedOutput(new ByteArrayInputStream(new byte[1]), 0, () -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxBytes must be positive");
  }

  @Test
  void oneByteOverTheBoundIsTruncation() {
    BoundedOutput collector = collect(new ByteArrayInputStream(new byte[11]), 10);

    assertThat(collector.captured().size()).isEqualTo(10);
    assertThat(collector.captured().truncated()).isTrue();
  }

  @Test
  void aBoundBeyondAnyArrayIsCappedNotRefused() {
    byte[] data = randomBytes(5000);

    CapturedOutput output = collect(new ByteArrayInputStream(data), Long.MAX_VALUE).captured();

    assertThat(output.bytes()).isEqualTo(data);
    assertThat(output.truncated()).isFalse();
  }

  @Test
  void aReadErrorMarksTheOutputIncomplete() {
    InputStream failing =
        new InputStream() {
          private int served;

          @Override
          public int read() throws IOException {
            if (served++ < 3) {
              return 'x';
            }
            throw new IOException("device gone");
          }
        };

    CapturedOutput output = collect(failing, 100).captured();

    assertThat(output.text()).isEqualTo("xxx");
    assertThat(output.truncated()).isTrue();
    assertThat(limitCalls).hasValue(0);
  }

  @Test
  void anAbandonedStreamIsClosedAndMarkedTruncated() throws InterruptedException {
    CountDownLatch closed = new CountDownLatch(1);
    InputStream neverEnding =
        new InputStream() {
          private boolean servedOnce;

          @Override
          public int read() throws IOException {
            if (!servedOnce) {
              servedOnce = true;
              return 'x';
            }
            try {
              closed.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            throw new IOException("closed");
          }

          @Override
          public int available() {
            return servedOnce ? 0 : 1;
          }

          @Override
          public void close() {
            closed.countDown();
          }
        };
    BoundedOutput collector = new BoundedOutput(neverEnding, 100, limitCalls::incrementAndGet);
    Thread reader = new Thread(collector);
    reader.start();

    assertThat(collector.awaitEnd(Duration.ofMillis(50))).isFalse();
    collector.abandon();

    assertThat(collector.awaitEnd(Duration.ofSeconds(30))).isTrue();
    reader.join();
    assertThat(collector.captured().text()).isEqualTo("x");
    assertThat(collector.captured().truncated()).isTrue();
  }

  private static byte[] randomBytes(int size) {
    byte[] bytes = new byte[size];
    new Random(size).nextBytes(bytes);
    return bytes;
  }
}
