package dev.capability.backend.kubernetes.internal;

import dev.capability.backend.support.BoundedOutput;
import dev.capability.kernel.api.CapturedOutput;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.util.Objects;

/**
 * One output stream of a command, kept up to a bound: the bytes beyond it are dropped, and the
 * first of them calls {@code onLimitExceeded} once, so the run can end the command.
 */
final class BoundedSink extends OutputStream {
  private final long maxBytes;
  private final Runnable onLimitExceeded;
  private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
  private boolean exceeded;

  BoundedSink(long maxBytes, Runnable onLimitExceeded) {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
    }
    this.maxBytes = Math.min(maxBytes, BoundedOutput.MAX_KEPT);
    this.onLimitExceeded = Objects.requireNonNull(onLimitExceeded, "onLimitExceeded");
  }

  @Override
  public void write(int b) {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    boolean justExceeded = false;
    synchronized (this) {
      long room = maxBytes - kept.size();
      int keep = (int) Math.min(room, length);
      kept.write(bytes, offset, keep);
      if (keep < length && !exceeded) {
        exceeded = true;
        justExceeded = true;
      }
    }
    if (justExceeded) {
      onLimitExceeded.run();
    }
  }

  synchronized boolean limitExceeded() {
    return exceeded;
  }

  synchronized CapturedOutput captured() {
    return CapturedOutput.of(kept.toByteArray(), exceeded);
  }
}
