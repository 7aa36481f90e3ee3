package dev.capability.linux;

import com.sun.jna.LastErrorException;
import dev.capability.linux.internal.NativeLibraries;
import dev.capability.linux.internal.SpliceCalls;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * A TCP connection made by a blocking {@code connect(2)} and handed over as a descriptor, for a
 * thread that will relay it with {@link SplicedSockets}: one system call where an event loop's
 * non-blocking connect takes a registration, a wake-up and a hand-over between threads. Its
 * connect and its writes wait at most the given time ({@code SO_SNDTIMEO}, which Linux applies to
 * {@code connect} too).
 */
public final class TcpConnection implements AutoCloseable {
  private static final int EINPROGRESS = 115;

  private final int descriptor;
  private boolean closed;

  private TcpConnection(int descriptor) {
    this.descriptor = descriptor;
  }

  /**
   * Connects to {@code address:port}, waiting at most {@code timeout}.
   *
   * @throws NativeCallException {@link NativeCallException#CONNECT_REFUSED} when nothing listens
   *     there, {@link NativeCallException#CONNECT_FAILED} when the time passed or the address is
   *     unreachable, {@link NativeCallException#NATIVE_UNAVAILABLE} without native access
   */
  public static TcpConnection connect(InetAddress address, int port, Duration timeout) {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(timeout, "timeout");
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
    byte[] socketAddress = socketAddress(address, port);
    int fd = -1;
    try {
      NativeLibraries.libc();
      fd = SpliceCalls.socket(address instanceof Inet4Address ? SpliceCalls.AF_INET : SpliceCalls.AF_INET6,
          SpliceCalls.SOCK_STREAM | SpliceCalls.SOCK_CLOEXEC, 0);
      long[] timeval = {Math.max(0, timeout.getSeconds()), Math.max(1, timeout.toNanosPart() / 1000)};
      SpliceCalls.setsockopt(fd, SpliceCalls.SOL_SOCKET, SpliceCalls.SO_SNDTIMEO, timeval, 16);
      SpliceCalls.connect(fd, socketAddress, socketAddress.length);
      return new TcpConnection(fd);
    } catch (LastErrorException e) {
      if (fd >= 0) {
        SpliceCalls.close(fd);
      }
      int errno = e.getErrorCode();
      String target = address.getHostAddress() + " port " + port;
      if (errno == SpliceCalls.ECONNREFUSED) {
        throw new NativeCallException(NativeCallException.CONNECT_REFUSED, "connection to " + target + " refused");
      }
      throw new NativeCallException(NativeCallException.CONNECT_FAILED, errno == EINPROGRESS
          ? "no connection to " + target + " within " + timeout
          : "cannot connect to " + target + ": errno " + errno);
    } catch (UnsatisfiedLinkError e) {
      throw new NativeCallException(NativeCallException.NATIVE_UNAVAILABLE, "socket calls are not reachable here: " + e.getMessage());
    }
  }

  /** A {@code sockaddr_in} or {@code sockaddr_in6}: the family in host order, port and address in network order. */
  private static byte[] socketAddress(InetAddress address, int port) {
    byte[] raw = address.getAddress();
    ByteBuffer buffer = ByteBuffer.allocate(raw.length == 4 ? 16 : 28);
    buffer.order(ByteOrder.nativeOrder()).putShort((short) (raw.length == 4 ? SpliceCalls.AF_INET : SpliceCalls.AF_INET6));
    buffer.order(ByteOrder.BIG_ENDIAN).putShort((short) port);
    if (raw.length == 4) {
      buffer.put(raw);
    } else {
      buffer.putInt(0).put(raw);
    }
    return buffer.array();
  }

  /** The connected socket's descriptor, owned by this connection. */
  public int descriptor() {
    return descriptor;
  }

  /**
   * Writes all of {@code bytes}, each wait at most the connect timeout.
   *
   * @throws NativeCallException {@link NativeCallException#CONNECT_FAILED} when the peer is gone
   *     or took nothing within the time
   */
  public void writeFully(byte[] bytes) {
    byte[] left = bytes;
    while (left.length > 0) {
      long written;
      try {
        written = SpliceCalls.write(descriptor, left, left.length);
      } catch (LastErrorException e) {
        if (e.getErrorCode() == SpliceCalls.EINTR) {
          continue;
        }
        throw new NativeCallException(NativeCallException.CONNECT_FAILED, "cannot write to the connection: errno " + e.getErrorCode());
      }
      left = Arrays.copyOfRange(left, (int) written, left.length);
    }
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      SpliceCalls.close(descriptor);
    }
  }
}
