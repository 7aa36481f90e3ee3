package dev.capability.linux;

import com.sun.jna.Native;
import dev.capability.linux.internal.CStrings;
import dev.capability.linux.internal.LibC;
import dev.capability.linux.internal.NativeLibraries;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Bytes in an anonymous memory file ({@code memfd_create}), positioned at their start, for a child
 * that reads them from a descriptor (see {@link DescriptorSpawn}), such as bwrap's {@code --seccomp
 * FD}. Nothing on any file system names it, so nobody can swap or read it by path.
 */
public final class MemoryFile implements AutoCloseable {
  private final int descriptor;
  private final AtomicBoolean closed = new AtomicBoolean();

  private MemoryFile(int descriptor) {
    this.descriptor = descriptor;
  }

  /**
   * A memory file holding {@code bytes}.
   *
   * @param name shown in {@code /proc/<pid>/fd} for diagnosis only
   * @throws NativeCallException {@link NativeCallException#NATIVE_UNAVAILABLE}, or {@link
   *     NativeCallException#SPAWN_FAILED} when the file cannot be made or written
   */
  public static MemoryFile of(String name, byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    LibC libc = NativeLibraries.libc();
    int descriptor = libc.memfd_create(CStrings.of(name), LibC.MFD_CLOEXEC);
    if (descriptor < 0) {
      throw failure("memfd_create", Native.getLastError());
    }
    try {
      int written = 0;
      while (written < bytes.length) {
        byte[] rest = Arrays.copyOfRange(bytes, written, bytes.length);
        long n = libc.write(descriptor, rest, rest.length);
        if (n < 0) {
          int error = Native.getLastError();
          if (error == LibC.EINTR) {
            continue;
          }
          throw failure("write", error);
        }
        written += (int) n;
      }
      if (libc.lseek(descriptor, 0, LibC.SEEK_SET) != 0) {
        throw failure("lseek", Native.getLastError());
      }
      return new MemoryFile(descriptor);
    } catch (RuntimeException e) {
      libc.close(descriptor);
      throw e;
    }
  }

  /** This JVM's descriptor for it, valid until {@link #close()}. */
  public int descriptor() {
    if (closed.get()) {
      throw new IllegalStateException("closed");
    }
    return descriptor;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      NativeLibraries.libc().close(descriptor);
    }
  }

  private static NativeCallException failure(String call, int errno) {
    return new NativeCallException(
        NativeCallException.SPAWN_FAILED,
        "cannot prepare a memory file for a child: " + call + " failed with errno " + errno);
  }
}
