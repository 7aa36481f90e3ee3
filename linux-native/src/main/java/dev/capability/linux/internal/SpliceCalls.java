package dev.capability.linux.internal;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * The calls a spliced relay makes for every chunk it moves, bound by JNA's direct mapping: a
 * relayed megabyte takes a few dozen of them, and an interface proxy's cost per call would show.
 * A failed call throws {@link LastErrorException} with its {@code errno}, except the two whose
 * failure a relay has no use for.
 */
public final class SpliceCalls {
  public static final int SPLICE_F_MOVE = 1;
  public static final int F_GETFL = 3;
  public static final int F_SETFL = 4;
  public static final int F_SETPIPE_SZ = 1031;
  public static final int SOL_SOCKET = 1;
  public static final int SO_RCVTIMEO = 20;
  public static final int SO_SNDTIMEO = 21;
  public static final int SHUT_WR = 1;
  public static final int SHUT_RDWR = 2;
  public static final int EAGAIN = 11;
  public static final int EINTR = 4;
  public static final int ECONNREFUSED = 111;
  public static final int EINVAL = 22;
  public static final int ECONNABORTED = 103;
  public static final int AF_UNIX = 1;
  public static final int AF_INET = 2;
  public static final int AF_INET6 = 10;
  public static final int SOCK_STREAM = 1;
  public static final int SOCK_CLOEXEC = 02000000;
  public static final int SOCK_NONBLOCK = 04000;
  public static final short POLLIN = 1;

  static {
    Native.register(SpliceCalls.class, "c");
  }

  private SpliceCalls() {}

  public static native long splice(int fdIn, Pointer offIn, int fdOut, Pointer offOut, long len, int flags)
      throws LastErrorException;

  public static native int dup(int fd) throws LastErrorException;

  public static native int socket(int domain, int type, int protocol) throws LastErrorException;

  public static native int connect(int fd, byte[] address, int length) throws LastErrorException;

  public static native long write(int fd, byte[] bytes, long count) throws LastErrorException;

  public static native long read(int fd, byte[] bytes, long count) throws LastErrorException;

  public static native int bind(int fd, byte[] address, int length) throws LastErrorException;

  public static native int listen(int fd, int backlog) throws LastErrorException;

  public static native int accept4(int fd, Pointer address, Pointer length, int flags) throws LastErrorException;

  /**
   * {@code pollFds} holds {@code struct pollfd}s as pairs of ints: the descriptor, then {@code
   * events} in the low and {@code revents} in the high half (both platforms are little-endian).
   */
  public static native int poll(int[] pollFds, long count, int timeoutMillis) throws LastErrorException;

  public static native int fcntl(int fd, int command, int argument) throws LastErrorException;

  public static native int pipe2(int[] fds, int flags) throws LastErrorException;

  public static native int setsockopt(int fd, int level, int name, long[] value, int length)
      throws LastErrorException;

  /**
   * Returns -1 on failure without the {@code errno}: a relay shuts down sockets whose peer may
   * have gone already ({@code ENOTCONN}), which is what it asked for, and that ends every
   * connection; an exception for it would cost more than the call.
   */
  public static native int shutdown(int fd, int how);

  /** Returns -1 on failure without the {@code errno}: nothing is left to do about a failed close. */
  public static native int close(int fd);
}
