package dev.capability.backend.support;

import dev.capability.kernel.api.CapturedOutput;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one output stream of a launched command to its end on its own thread, keeping at most a
 * fixed number of bytes. Everything past the bound is read and dropped, so memory stays bounded
 * whatever the command writes, and the command never blocks on a full pipe before it is ended. The
 * stream is closed once read to its end or abandoned.
 */
public final class BoundedOutput implements Runnable {
  /** The largest byte array the JVM reliably allocates; the effective bound never exceeds it. */
  public static final int MAX_KEPT = Integer.MAX_VALUE - 8;

  private static final Logger LOG = LoggerFactory.getLogger(BoundedOutput.class);
  private static final int CHUNK = 16 * 1024;

  private final InputStream source;
  private final int limit;
  private final Runnable onLimitExceeded;
  private final CountDownLatch ended = new CountDownLatch(1);

  private byte[] kept = new byte[0];
  private int size;
  private boolean limitExceeded;
  private boolean incomplete;
  private boolean abandoned;

  /**
   * @param source the stream to drain
   * @param maxBytes bytes to keep; capped at {@link #MAX_KEPT}
   * @param onLimitExceeded run once, on the reading thread, when the stream first goes past the
   *     bound
   * @throws IllegalArgumentException when {@code maxBytes} is not positive
   */
  public BoundedOutput(InputStream source, long maxBytes, Runnable onLimitExceeded) {
    this.source = Objects.requireNonNull(source, "source");
    this.onLimitExceeded = Objects.requireNonNull(onLimitExceeded, "onLimitExceeded");
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
    }
    this.limit = (int) Math.min(maxBytes, MAX_KEPT);
  }

  /** Reads the stream to its end (or until it fails or is abandoned), then closes it. */
  @Override
  public void run() {
    byte[] chunk = new byte[CHUNK];
    try (InputStream in = source) {
      int n;
      while ((n = in.read(chunk)) != -1) {
        accept(chunk, n);
      }
    } catch (IOException e) {
      readFailed(e);
    } finally {
      ended.countDown();
    }
  }

  /** Waits up to {@code wait} for the end of the stream; true when it was reached. */
  public boolean awaitEnd(Duration wait) throws InterruptedException {
    return ended.await(wait.toNanos(), TimeUnit.NANOSECONDS);
  }

  /**
   * Stops waiting for the end of the stream: closes it, and marks what was kept as truncated, since
   * whoever still holds the pipe may write more.
   */
  public void abandon() {
    synchronized (this) {
      abandoned = true;
      incomplete = true;
    }
    try {
      source.close();
    } catch (IOException e) {
      LOG.debug("closing an abandoned output stream failed: {}", e.getMessage());
    }
  }

  /** True once the stream went past the bound. */
  public synchronized boolean limitExceeded() {
    return limitExceeded;
  }

  /** The bytes kept so far; truncated when the bound was exceeded or reading stopped early. */
  public synchronized CapturedOutput captured() {
    byte[] bytes = kept.length == size ? kept : Arrays.copyOf(kept, size);
    return CapturedOutput.of(bytes, limitExceeded || incomplete);
  }

  private void accept(byte[] chunk, int n) {
    boolean firstExcess;
    synchronized (this) {
      int keep = Math.min(n, limit - size);
      if (keep > 0) {
        ensureCapacity(size + keep);
        System.arraycopy(chunk, 0, kept, size, keep);
        size += keep;
      }
      firstExcess = keep < n && !limitExceeded;
      limitExceeded |= keep < n;
    }
    if (firstExcess) {
      onLimitExceeded.run();
    }
  }

  private void ensureCapacity(int needed) {
    if (needed > kept.length) {
      long doubled = Math.max(CHUNK, 2L * kept.length);
      kept = Arrays.copyOf(kept, (int) Math.min(limit, Math.max(needed, doubled)));
    }
  }

  private synchronized void readFailed(IOException e) {
    if (!abandoned) {
      // Bytes may have been lost: the capture cannot claim to be complete.
      incomplete = true;
      LOG.debug("reading command output failed: {}", e.getMessage());
    }
  }
}
