package dev.capability.linux;

import com.sun.jna.Native;
import dev.capability.linux.internal.CStrings;
import dev.capability.linux.internal.LibC;
import dev.capability.linux.internal.NativeLibraries;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A directory or regular file held open by descriptor, reached from {@code /} one component at a
 * time without following any symbolic link. Whatever later happens to the path (a directory
 * renamed away and replaced by a link to {@code /}), the descriptor still names what was checked;
 * handing it to a child (see {@link DescriptorSpawn}) lets the child act on exactly that object.
 *
 * <p>Directories are held with {@code O_PATH}, which needs search permission on the way but no
 * read permission on the directory; regular files are opened for reading, non-blocking, so that
 * opening one never waits.
 */
public final class PinnedPath implements AutoCloseable {
  private static final int WALK_FLAGS =
      LibC.O_PATH | LibC.O_DIRECTORY | LibC.O_NOFOLLOW | LibC.O_CLOEXEC;
  private static final int FILE_FLAGS =
      LibC.O_RDONLY | LibC.O_NOFOLLOW | LibC.O_CLOEXEC | LibC.O_NONBLOCK;

  private static final int S_IFMT = 0170000;
  private static final int S_IFSOCK = 0140000;

  private final Path path;
  private final int descriptor;
  private final boolean directory;
  private final AtomicBoolean closed = new AtomicBoolean();

  private PinnedPath(Path path, int descriptor, boolean directory) {
    this.path = path;
    this.descriptor = descriptor;
    this.directory = directory;
  }

  /**
   * Opens {@code path}, which must be absolute and normalized.
   *
   * @throws NativeCallException {@link NativeCallException#PATH_HAS_SYMLINK} when the path is, or
   *     passes through, a symbolic link; {@link NativeCallException#PATH_NOT_OPENED} when a
   *     component is missing, unreachable, or the path is neither a directory nor a regular file;
   *     {@link NativeCallException#NATIVE_UNAVAILABLE} without native access
   * @throws IllegalArgumentException when the path is relative or not normalized
   */
  public static PinnedPath open(Path path) {
    Objects.requireNonNull(path, "path");
    if (!path.isAbsolute() || !path.normalize().equals(path)) {
      throw new IllegalArgumentException("not an absolute, normalized path: " + path);
    }
    LibC libc = NativeLibraries.libc();
    int current = libc.openat(LibC.AT_FDCWD, CStrings.of("/"), WALK_FLAGS, 0);
    if (current < 0) {
      throw failure(path, Path.of("/"), Native.getLastError());
    }
    try {
      for (int i = 0; i < path.getNameCount(); i++) {
        String name = path.getName(i).toString();
        boolean last = i == path.getNameCount() - 1;
        int next = libc.openat(current, CStrings.of(name), WALK_FLAGS, 0);
        int error = Native.getLastError();
        if (next < 0 && last && error == LibC.ENOTDIR) {
          next = libc.openat(current, CStrings.of(name), FILE_FLAGS, 0);
          error = Native.getLastError();
          if (next >= 0) {
            checkRegularFile(libc, next, path);
            int file = next;
            libc.close(current);
            current = -1;
            return new PinnedPath(path, file, false);
          }
        }
        if (next < 0) {
          throw failure(path, path.getRoot().resolve(path.subpath(0, i + 1)), error);
        }
        libc.close(current);
        current = next;
      }
      PinnedPath pinned = new PinnedPath(path, current, true);
      current = -1;
      return pinned;
    } finally {
      if (current >= 0) {
        libc.close(current);
      }
    }
  }

  /**
   * Opens the Unix socket at {@code path}, which must be absolute and normalized, with {@code
   * O_PATH}: the descriptor cannot read or write anything, but a process that holds it can connect
   * to the socket through {@code /proc/self/fd/N} without searching the directories on the way,
   * so a sandbox whose user could not reach the socket by path reaches exactly this socket.
   *
   * @throws NativeCallException {@link NativeCallException#PATH_HAS_SYMLINK} when the path is, or
   *     passes through, a symbolic link; {@link NativeCallException#PATH_NOT_OPENED} when a
   *     component is missing or unreachable, or the path is not a socket; {@link
   *     NativeCallException#NATIVE_UNAVAILABLE} without native access
   * @throws IllegalArgumentException when the path is relative, not normalized, or {@code /}
   */
  public static PinnedPath openSocket(Path path) {
    Objects.requireNonNull(path, "path");
    if (!path.isAbsolute() || !path.normalize().equals(path) || path.getNameCount() == 0) {
      throw new IllegalArgumentException("not an absolute, normalized path of a file: " + path);
    }
    try (PinnedPath parent = open(path.getParent())) {
      LibC libc = NativeLibraries.libc();
      int socket =
          libc.openat(
              parent.descriptor(),
              CStrings.of(path.getFileName().toString()),
              LibC.O_PATH | LibC.O_NOFOLLOW | LibC.O_CLOEXEC,
              0);
      if (socket < 0) {
        throw failure(path, path, Native.getLastError());
      }
      if (!isSocket(socket)) {
        libc.close(socket);
        throw new NativeCallException(
            NativeCallException.PATH_NOT_OPENED,
            "cannot pin " + path + ": it is not a Unix socket (or is a symbolic link)");
      }
      return new PinnedPath(path, socket, false);
    }
  }

  private static boolean isSocket(int descriptor) {
    Path proc = Path.of("/proc/self/fd", Integer.toString(descriptor));
    try {
      int mode = (Integer) Files.getAttribute(proc, "unix:mode");
      return (mode & S_IFMT) == S_IFSOCK;
    } catch (IOException | SecurityException | UnsupportedOperationException e) {
      return false;
    }
  }

  /** The path as it was opened. */
  public Path path() {
    return path;
  }

  /** This JVM's descriptor for it, valid until {@link #close()}. */
  public int descriptor() {
    if (closed.get()) {
      throw new IllegalStateException("closed: " + path);
    }
    return descriptor;
  }

  /** Whether it is a directory (otherwise a regular file, or a socket held by {@link #openSocket}). */
  public boolean isDirectory() {
    return directory;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      NativeLibraries.libc().close(descriptor);
    }
  }

  private static void checkRegularFile(LibC libc, int descriptor, Path path) {
    Path proc = Path.of("/proc/self/fd", Integer.toString(descriptor));
    boolean regular;
    try {
      regular = Files.isRegularFile(proc);
    } catch (SecurityException e) {
      regular = false;
    }
    if (!regular) {
      libc.close(descriptor);
      throw new NativeCallException(
          NativeCallException.PATH_NOT_OPENED,
          "cannot pin " + path + ": it is neither a directory nor a regular file");
    }
  }

  private static NativeCallException failure(Path path, Path component, int errno) {
    if (errno == LibC.ELOOP || errno == LibC.ENOTDIR) {
      return new NativeCallException(
          NativeCallException.PATH_HAS_SYMLINK,
          "cannot pin "
              + path
              + ": "
              + component
              + " is a symbolic link or not a directory; refusing to follow it");
    }
    return new NativeCallException(
        NativeCallException.PATH_NOT_OPENED,
        "cannot pin " + path + ": opening " + component + " failed with errno " + errno);
  }
}
