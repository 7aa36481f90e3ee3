package dev.capability.linux;

import com.sun.jna.LastErrorException;
import dev.capability.linux.internal.NativeLibraries;
import dev.capability.linux.internal.SpliceCalls;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.jspecify.annotations.Nullable;

/**
 * A listening Unix stream socket whose {@link #accept()} blocks: several threads may wait in it
 * at once, and the kernel hands each new connection to one of them, which can then serve it on
 * the same thread, with no hand-over to another. {@link #close()} wakes them all.
 */
public final class UnixListener implements AutoCloseable {
  /** {@code sizeof(sun_path)}: the path and its terminating NUL. */
  private static final int PATH_BYTES = 108;

  private final int descriptor;
  /** Accepting threads hold it shared; closing takes it exclusively, so no accept uses a closed descriptor. */
  private final ReadWriteLock use = new ReentrantReadWriteLock();
  private final AtomicBoolean closed = new AtomicBoolean();

  private UnixListener(int descriptor) {
    this.descriptor = descriptor;
  }

  /**
   * Binds a new socket file at {@code path} and listens on it.
   *
   * @throws NativeCallException {@link NativeCallException#LISTEN_FAILED} when the path is too
   *     long, exists, or cannot be bound; {@link NativeCallException#NATIVE_UNAVAILABLE} without
   *     native access
   */
  public static UnixListener listen(Path path, int backlog) {
    Objects.requireNonNull(path, "path");
    byte[] name = path.toString().getBytes(StandardCharsets.UTF_8);
    if (name.length >= PATH_BYTES) {
      throw new NativeCallException(NativeCallException.LISTEN_FAILED,
          "the socket path " + path + " is " + name.length + " bytes; a Unix socket's is at most " + (PATH_BYTES - 1));
    }
    ByteBuffer address = ByteBuffer.allocate(2 + name.length + 1).order(ByteOrder.nativeOrder());
    address.putShort((short) SpliceCalls.AF_UNIX).put(name).put((byte) 0);
    int fd = -1;
    try {
      NativeLibraries.libc();
      fd = SpliceCalls.socket(SpliceCalls.AF_UNIX, SpliceCalls.SOCK_STREAM | SpliceCalls.SOCK_CLOEXEC, 0);
      SpliceCalls.bind(fd, address.array(), address.capacity());
      SpliceCalls.listen(fd, backlog);
      return new UnixListener(fd);
    } catch (LastErrorException e) {
      if (fd >= 0) {
        SpliceCalls.close(fd);
      }
      throw new NativeCallException(NativeCallException.LISTEN_FAILED, "cannot listen on " + path + ": errno " + e.getErrorCode());
    } catch (UnsatisfiedLinkError e) {
      throw new NativeCallException(NativeCallException.NATIVE_UNAVAILABLE, "socket calls are not reachable here: " + e.getMessage());
    }
  }

  /**
   * Waits for the next connection; null once this listener is closed.
   *
   * @throws NativeCallException {@link NativeCallException#LISTEN_FAILED} when the call fails
   *     otherwise (out of descriptors): the listener stays open
   */
  public @Nullable UnixConnection accept() {
    use.readLock().lock();
    try {
      while (!closed.get()) {
        try {
          return new UnixConnection(SpliceCalls.accept4(descriptor, null, null, SpliceCalls.SOCK_CLOEXEC | SpliceCalls.SOCK_NONBLOCK));
        } catch (LastErrorException e) {
          int errno = e.getErrorCode();
          if (closed.get() || errno == SpliceCalls.EINVAL) {
            return null;
          }
          if (errno != SpliceCalls.EINTR && errno != SpliceCalls.ECONNABORTED) {
            throw new NativeCallException(NativeCallException.LISTEN_FAILED, "cannot accept a connection: errno " + errno);
          }
        }
      }
      return null;
    } finally {
      use.readLock().unlock();
    }
  }

  /**
   * Stops listening: every {@link #accept()} under way returns null, so do later ones, new
   * connections are refused, and those not yet accepted are closed. The socket file stays (its
   * owner deletes it). Safe from any thread, more than once.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    SpliceCalls.shutdown(descriptor, SpliceCalls.SHUT_RDWR); // wakes the threads in accept(2)
    use.writeLock().lock();
    try {
      SpliceCalls.close(descriptor);
    } finally {
      use.writeLock().unlock();
    }
  }
}
