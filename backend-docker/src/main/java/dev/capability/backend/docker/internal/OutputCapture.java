package dev.capability.backend.docker.internal;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import dev.capability.kernel.api.CapturedOutput;
import java.io.ByteArrayOutputStream;
import java.util.Objects;

/**
 * Receives a container's stdout and stderr from the attach stream and keeps at most a fixed number
 * of bytes of each. The rest is dropped as it arrives, so memory stays bounded; the first byte
 * beyond a bound runs the {@code onExceeded} action once, which ends the container.
 */
final class OutputCapture extends ResultCallback.Adapter<Frame> {
  /** The largest array the JVM reliably allocates. */
  static final int MAX_KEPT = Integer.MAX_VALUE - 8;

  private final int limit;
  private final Runnable onExceeded;
  private final Stream stdout = new Stream();
  private final Stream stderr = new Stream();
  private boolean exceededOnce;
  private boolean incomplete;

  /**
   * @param maxBytes bytes to keep of each stream, capped at {@link #MAX_KEPT}
   * @param onExceeded run once, on the receiving thread, when a stream first passes the bound
   */
  OutputCapture(long maxBytes, Runnable onExceeded) {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
    }
    this.limit = (int) Math.min(maxBytes, MAX_KEPT);
    this.onExceeded = Objects.requireNonNull(onExceeded, "onExceeded");
  }

  private static final class Stream {
    final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    boolean exceeded;
  }

  @Override
  public void onNext(Frame frame) {
    StreamType type = frame.getStreamType();
    Stream target = type == StreamType.STDERR ? stderr : stdout;
    byte[] payload = frame.getPayload();
    if (payload == null || payload.length == 0) {
      return;
    }
    boolean first;
    synchronized (this) {
      int keep = Math.min(payload.length, limit - target.kept.size());
      if (keep > 0) {
        target.kept.write(payload, 0, keep);
      }
      target.exceeded |= keep < payload.length;
      first = keep < payload.length && !exceededOnce;
      exceededOnce |= first;
    }
    if (first) {
      onExceeded.run();
    }
  }

  /** Marks what was kept as possibly incomplete, when the stream did not reach its end. */
  synchronized void markIncomplete() {
    incomplete = true;
  }

  synchronized boolean exceeded() {
    return exceededOnce;
  }

  synchronized CapturedOutput stdout() {
    return CapturedOutput.of(stdout.kept.toByteArray(), stdout.exceeded || incomplete);
  }

  synchronized CapturedOutput stderr() {
    return CapturedOutput.of(stderr.kept.toByteArray(), stderr.exceeded || incomplete);
  }
}
