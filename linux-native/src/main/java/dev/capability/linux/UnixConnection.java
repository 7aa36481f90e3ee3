package dev.capability.linux;

import com.sun.jna.LastErrorException;
import dev.capability.linux.internal.SpliceCalls;
import java.time.Duration;

/**
 * A connection {@link UnixListener#accept() accepted} from a Unix socket, non-blocking, owned by
 * this object until {@link #release() released} to another owner (an event loop). Its methods
 * are safe from any thread: one thread may {@link #shutdown()} it while another reads.
 */
public final class UnixConnection implements AutoCloseable {
  private final int descriptor;
  private boolean owned = true;

  UnixConnection(int descriptor) {
    this.descriptor = descriptor;
  }

  /** The descriptor; it stays valid while this connection owns it. */
  public int descriptor() {
    return descriptor;
  }

  /**
   * Waits at most {@code wait} for bytes and reads what has come, up to {@code into}'s length.
   *
   * @return the bytes read; 0 when none came within the wait; -1 when the peer has closed or
   *     the connection was shut down or failed
   */
  public int read(byte[] into, Duration wait) {
    long deadline = System.nanoTime() + wait.toNanos();
    int[] pollFd = {descriptor, SpliceCalls.POLLIN};
    while (true) {
      long left = deadline - System.nanoTime();
      try {
        if (SpliceCalls.poll(pollFd, 1, (int) Math.min(Integer.MAX_VALUE, Math.max(0, (left + 999_999) / 1_000_000))) == 0) {
          return 0;
        }
        long read = SpliceCalls.read(descriptor, into, into.length);
        return read == 0 ? -1 : (int) read;
      } catch (LastErrorException e) {
        int errno = e.getErrorCode();
        if (errno != SpliceCalls.EINTR && errno != SpliceCalls.EAGAIN) {
          return -1;
        }
        if (deadline - System.nanoTime() <= 0) {
          return 0;
        }
      }
    }
  }

  /** Ends the connection both ways, so that a read or splice under way returns; nothing once released or closed. */
  public synchronized void shutdown() {
    if (owned) {
      SpliceCalls.shutdown(descriptor, SpliceCalls.SHUT_RDWR);
    }
  }

  /**
   * Hands the descriptor to a new owner, which closes it; this connection no longer touches it.
   *
   * @throws IllegalStateException when it was released or closed already
   */
  public synchronized int release() {
    if (!owned) {
      throw new IllegalStateException("the connection was released or closed already");
    }
    owned = false;
    return descriptor;
  }

  /** Closes the descriptor, unless it was released. */
  @Override
  public synchronized void close() {
    if (owned) {
      owned = false;
      SpliceCalls.close(descriptor);
    }
  }
}
