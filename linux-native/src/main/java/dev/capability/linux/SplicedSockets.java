package dev.capability.linux;

import com.sun.jna.LastErrorException;
import dev.capability.linux.internal.LibC;
import dev.capability.linux.internal.NativeLibraries;
import dev.capability.linux.internal.SpliceCalls;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * Two connected stream sockets (TCP or Unix) whose bytes are moved from one to the other by
 * {@code splice(2)} through a pipe, inside the kernel: they never enter the JVM. A relay runs one
 * {@link Direction} per thread.
 *
 * <p>The sockets are duplicated when this opens and the duplicates are what it uses, so an owner
 * that closes its own descriptors meanwhile cannot hand their numbers to another file under a
 * running splice. The duplicates are switched to blocking mode (which the originals share: their
 * owner must have stopped polling them) and each call waits at most the given time, after which
 * a direction reports that nothing moved.
 */
public final class SplicedSockets implements AutoCloseable {
  /**
   * A direction's pipe: 1 MiB (the default pipe-max-size an unprivileged process may ask for)
   * lets a splice take a whole socket buffer at once; Linux's default of 64 KiB took a fifth more
   * wall time per relayed megabyte (docs/BENCHMARKS.md).
   */
  private static final int PIPE_BYTES = 1 << 20;
  private static final int O_NONBLOCK = LibC.O_NONBLOCK;
  private static final int O_CLOEXEC = LibC.O_CLOEXEC;
  private static final byte[] DEV_NULL = "/dev/null\0".getBytes(StandardCharsets.US_ASCII);

  private final int first;
  private final int second;
  private boolean closed;

  private SplicedSockets(int first, int second) {
    this.first = first;
    this.second = second;
  }

  /**
   * Takes over copies of {@code first} and {@code second}, each call waiting at most {@code wait}.
   *
   * @throws NativeCallException {@link NativeCallException#NATIVE_UNAVAILABLE} without native
   *     access, {@link NativeCallException#SPLICE_FAILED} when a descriptor cannot be duplicated
   *     or set up
   */
  public static SplicedSockets open(int first, int second, Duration wait) {
    Objects.requireNonNull(wait, "wait");
    NativeLibraries.libc();
    int firstCopy = -1;
    int secondCopy = -1;
    try {
      firstCopy = SpliceCalls.dup(first);
      secondCopy = SpliceCalls.dup(second);
      long[] timeval = {Math.max(0, wait.getSeconds()), Math.max(1, wait.toNanosPart() / 1000)};
      for (int fd : new int[] {firstCopy, secondCopy}) {
        SpliceCalls.fcntl(fd, SpliceCalls.F_SETFL, SpliceCalls.fcntl(fd, SpliceCalls.F_GETFL, 0) & ~O_NONBLOCK);
        SpliceCalls.setsockopt(fd, SpliceCalls.SOL_SOCKET, SpliceCalls.SO_RCVTIMEO, timeval, 16);
        SpliceCalls.setsockopt(fd, SpliceCalls.SOL_SOCKET, SpliceCalls.SO_SNDTIMEO, timeval, 16);
      }
      return new SplicedSockets(firstCopy, secondCopy);
    } catch (LastErrorException e) {
      closeQuietly(firstCopy);
      closeQuietly(secondCopy);
      throw new NativeCallException(NativeCallException.SPLICE_FAILED,
          "cannot take over sockets " + first + " and " + second + " for splicing: errno " + e.getErrorCode());
    } catch (UnsatisfiedLinkError e) {
      closeQuietly(firstCopy);
      closeQuietly(secondCopy);
      throw new NativeCallException(NativeCallException.NATIVE_UNAVAILABLE, "splice(2) is not reachable here: " + e.getMessage());
    }
  }

  /** The first socket's bytes, into the second. */
  public Direction firstToSecond() {
    return new Direction(first, second);
  }

  /** The second socket's bytes, into the first. */
  public Direction secondToFirst() {
    return new Direction(second, first);
  }

  /** The first socket's bytes, read and thrown away (into {@code /dev/null}, still in the kernel). */
  public Direction firstToNowhere() {
    return new Direction(first, -1);
  }

  /**
   * Ends both sockets both ways ({@code shutdown(SHUT_RDWR)}): every direction's call under way
   * returns, and the next reports the end. Safe to call from any thread, more than once.
   */
  public void shutdown() {
    shutdownQuietly(first, SpliceCalls.SHUT_RDWR);
    shutdownQuietly(second, SpliceCalls.SHUT_RDWR);
  }

  /** Closes the copies. The directions must have returned. */
  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      closeQuietly(first);
      closeQuietly(second);
    }
  }

  private static void shutdownQuietly(int fd, int how) {
    SpliceCalls.shutdown(fd, how); // ENOTCONN: the socket has ended already, as was asked
  }

  private static void closeQuietly(int fd) {
    if (fd >= 0) {
      SpliceCalls.close(fd);
    }
  }

  /**
   * One way through the pair: {@link #pull} moves what the source has into this direction's
   * pipe, {@link #push} moves the pipe's content to the destination. Between the two the caller
   * decides whether the bytes may go on (a byte budget). One thread per direction.
   */
  public static final class Direction implements AutoCloseable {
    private final int from;
    private final int to;
    private final int pipeOut;
    private final int pipeIn;
    private final boolean discarding;
    private long inPipe;
    private boolean destinationEnded;

    private Direction(int from, int to) {
      this.from = from;
      int[] pipe = new int[2];
      try {
        SpliceCalls.pipe2(pipe, O_CLOEXEC);
      } catch (LastErrorException e) {
        throw new NativeCallException(NativeCallException.SPLICE_FAILED, "cannot make a pipe: errno " + e.getErrorCode());
      }
      this.pipeOut = pipe[0];
      this.pipeIn = pipe[1];
      try {
        SpliceCalls.fcntl(pipeIn, SpliceCalls.F_SETPIPE_SZ, PIPE_BYTES);
      } catch (LastErrorException smaller) {
        // Above the system's pipe-max-size: the default pipe moves the same bytes in more calls.
      }
      this.discarding = to < 0;
      this.to = discarding ? openNull() : to;
    }

    private static int openNull() {
      int fd = NativeLibraries.libc().openat(LibC.AT_FDCWD, DEV_NULL, LibC.O_WRONLY | O_CLOEXEC, 0);
      if (fd < 0) {
        throw new NativeCallException(NativeCallException.SPLICE_FAILED, "cannot open /dev/null to discard into");
      }
      return fd;
    }

    /**
     * Waits for the source and moves at most {@code max} of its bytes into the pipe.
     *
     * @return the bytes moved; 0 when the wait passed with nothing; -1 when the source has ended
     *     (its peer closed, it was shut down, or it failed)
     */
    public long pull(long max) {
      while (true) {
        try {
          long moved = SpliceCalls.splice(from, null, pipeIn, null, Math.max(1, max), SpliceCalls.SPLICE_F_MOVE);
          if (moved == 0) {
            return -1;
          }
          inPipe += moved;
          return moved;
        } catch (LastErrorException e) {
          if (e.getErrorCode() == SpliceCalls.EINTR) {
            continue;
          }
          return e.getErrorCode() == SpliceCalls.EAGAIN ? 0 : -1;
        }
      }
    }

    /**
     * Moves what the pipe holds to the destination.
     *
     * @return true when all of it went; false when some is left: the destination took nothing
     *     within the wait (its reader is stalled: call again) or has ended ({@link
     *     #destinationEnded()})
     */
    public boolean push() {
      while (inPipe > 0) {
        try {
          inPipe -= SpliceCalls.splice(pipeOut, null, to, null, inPipe, SpliceCalls.SPLICE_F_MOVE);
        } catch (LastErrorException e) {
          if (e.getErrorCode() == SpliceCalls.EINTR) {
            continue;
          }
          destinationEnded = e.getErrorCode() != SpliceCalls.EAGAIN;
          return false;
        }
      }
      return true;
    }

    /** Whether the destination refused bytes for good (its peer closed, or it was shut down). */
    public boolean destinationEnded() {
      return destinationEnded;
    }

    /** Tells the destination nothing more comes this way ({@code shutdown(SHUT_WR)}). */
    public void endOutput() {
      shutdownQuietly(to, SpliceCalls.SHUT_WR);
    }

    /** Closes this direction's pipe (and its {@code /dev/null}). */
    @Override
    public void close() {
      closeQuietly(pipeIn);
      closeQuietly(pipeOut);
      if (discarding) {
        closeQuietly(to);
      }
    }
  }
}
