package dev.capability.backend.bwrap.internal;

import dev.capability.kernel.api.CapturedOutput;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains one output stream of a sandbox on its own thread and keeps at most a fixed number of
 * bytes. The rest is read and dropped, so memory stays bounded and the sandbox never blocks on a
 * full pipe before it is ended.
 */
final class BoundedOutput implements Runnable {
  /** The largest array the JVM reliably allocates. */
  static final int MAX_KEPT = Integer.MAX_VALUE - 8;

  private static final Logger LOG = LoggerFactory.getLogger(BoundedOutput.class);
  private static final int CHUNK = 16 * 1024;

  private final InputStream source;
  private final int limit;
  private final Runnable onExceeded;
  private final CountDownLatch ended = new CountDownLatch(1);
  private final ByteArrayOutputStream kept = new ByteArrayOutputStream();

  private boolean exceeded;
  private boolean incomplete;

  /**
   * @param source the stream to drain
   * @param maxBytes bytes to keep, capped at {@link #MAX_KEPT}
   * @param onExceeded run once on the reading thread when the stream first passes the bound
   */
  BoundedOutput(InputStream source, long maxBytes, Runnable onExceeded) {
    this.source = Objects.requireNonNull(source, "source");
    this.onExceeded = Objects.requireNonNull(onExceeded, "onExceeded");
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
    }
    this.limit = (int) Math.min(maxBytes, MAX_KEPT);
  }

  @Override
  public void run() {
    byte[] chunk = new byte[CHUNK];
    try (InputStream in = source) {
      int n;
      while ((n = in.read(chunk)) != -1) {
        accept(chunk, n);
      }
    } catch (IOException e) {
      markIncomplete();
      LOG.debug("reading sandbox output stopped: {}", e.getMessage());
    } finally {
      ended.countDown();
    }
  }

  /** Waits up to {@code wait} for the end of the stream; true when it was reached. */
  boolean awaitEnd(Duration wait) throws InterruptedException {
    return ended.await(wait.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Gives up on the stream: closes it and marks what was kept as possibly incomplete. */
  void abandon() {
    markIncomplete();
    try {
      source.close();
    } catch (IOException e) {
      LOG.debug("closing abandoned sandbox output failed: {}", e.getMessage());
    }
  }

  synchronized boolean exceeded() {
    return exceeded;
  }

  synchronized CapturedOutput captured() {
    return CapturedOutput.of(kept.toByteArray(), exceeded || incomplete);
  }

  private void accept(byte[] chunk, int n) {
    boolean first;
    synchronized (this) {
      int keep = Math.min(n, limit - kept.size());
      if (keep > 0) {
        kept.write(chunk, 0, keep);
      }
      first = keep < n && !exceeded;
      exceeded |= keep < n;
    }
    if (first) {
      onExceeded.run();
    }
  }

  private synchronized void markIncomplete() {
    incomplete = true;
  }
}
