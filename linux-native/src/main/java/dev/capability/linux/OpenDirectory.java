package dev.capability.linux;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.capability.linux.internal.DirectoryCalls;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * A directory held open by descriptor, whose entries are listed ({@code getdents64}) and stated
 * ({@code statx}) relative to that descriptor, and whose subdirectories are opened relative to it
 * without following a symbolic link. Each entry costs one system call that resolves one name,
 * instead of a lookup of its whole path, and its status is read straight from a buffer.
 *
 * <p>Names are the raw bytes the file system holds; nothing is decoded. Different threads may open
 * children of one directory at once; {@link #list()} is called by one thread, once.
 */
public final class OpenDirectory implements AutoCloseable {
  private static final int OPEN_FLAGS =
      DirectoryCalls.O_RDONLY | DirectoryCalls.O_DIRECTORY | DirectoryCalls.O_NOFOLLOW | DirectoryCalls.O_CLOEXEC;
  /** {@code STATX_TYPE | STATX_MODE | STATX_MTIME | STATX_CTIME | STATX_INO | STATX_SIZE}. */
  private static final int REQUIRED_FIELDS = 0x1 | 0x2 | 0x40 | 0x80 | 0x100 | 0x200;
  private static final int S_IFMT = 0170000;
  private static final int S_IFLNK = 0120000;
  private static final Charset FILE_NAMES = fileNameCharset();
  private static final ThreadLocal<Buffers> BUFFERS = ThreadLocal.withInitial(Buffers::new);

  private final String description;
  private final int descriptor;
  private final AtomicBoolean closed = new AtomicBoolean();

  private OpenDirectory(String description, int descriptor) {
    this.description = description;
    this.descriptor = descriptor;
  }

  /**
   * One entry of a listing.
   *
   * @param name the entry's name as the file system holds it (never {@code .} or {@code ..})
   * @param status its status, a symbolic link's own
   * @param linkTarget a symbolic link's target as stored in the link; {@code null} for other types
   */
  public record Entry(byte[] name, FileStatus status, byte @Nullable [] linkTarget) {
    public Entry {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(status, "status");
      if ((linkTarget != null) != ((status.mode() & S_IFMT) == S_IFLNK)) {
        throw new IllegalArgumentException("a link target belongs to symbolic links only");
      }
    }
  }

  /** Why directories cannot be opened and listed here, or empty when they can. */
  public static Optional<String> problem() {
    Optional<String> problem = NativeAccess.problem();
    if (problem.isPresent()) {
      return problem;
    }
    try {
      DirectoryCalls.close(-1);
      return Optional.empty();
    } catch (UnsatisfiedLinkError | NoClassDefFoundError | ExceptionInInitializerError e) {
      return Optional.of("cannot bind the C library's directory calls (getdents64 needs glibc 2.30): " + e);
    }
  }

  /**
   * Opens the directory at {@code path}, which must be absolute and normalized; a final symbolic
   * link is not followed.
   *
   * @throws NativeCallException {@link NativeCallException#PATH_HAS_SYMLINK} when it is a symbolic
   *     link or not a directory; {@link NativeCallException#PATH_NOT_OPENED} when it is missing or
   *     cannot be read; {@link NativeCallException#NATIVE_UNAVAILABLE} without native access
   * @throws IllegalArgumentException when the path is relative or not normalized
   */
  public static OpenDirectory open(Path path) {
    Objects.requireNonNull(path, "path");
    if (!path.isAbsolute() || !path.normalize().equals(path)) {
      throw new IllegalArgumentException("not an absolute, normalized path: " + path);
    }
    requireNativeAccess();
    byte[] bytes = path.toString().getBytes(FILE_NAMES);
    try (Memory name = new Memory(bytes.length + 1L)) {
      name.write(0, bytes, 0, bytes.length);
      name.setByte(bytes.length, (byte) 0);
      return new OpenDirectory(
          path.toString(), DirectoryCalls.openat(DirectoryCalls.AT_FDCWD, Pointer.nativeValue(name), OPEN_FLAGS, 0));
    } catch (LastErrorException e) {
      throw openFailure(path.toString(), e.getErrorCode());
    }
  }

  /**
   * Opens the subdirectory {@code name} of this directory, without following a symbolic link.
   *
   * @return empty when no entry of that name exists (any more)
   * @throws NativeCallException {@link NativeCallException#PATH_HAS_SYMLINK} when it is a symbolic
   *     link or not a directory; {@link NativeCallException#PATH_NOT_OPENED} when it cannot be read
   * @throws IllegalArgumentException when {@code name} is empty, too long, or holds a slash or NUL
   */
  public Optional<OpenDirectory> openChild(byte[] name) {
    requireName(name);
    Buffers buffers = BUFFERS.get();
    buffers.view.put(Buffers.NAME, name);
    buffers.view.put(Buffers.NAME + name.length, (byte) 0);
    String child = description + "/" + new String(name, FILE_NAMES);
    try {
      return Optional.of(new OpenDirectory(
          child, DirectoryCalls.openat(descriptor(), buffers.address + Buffers.NAME, OPEN_FLAGS, 0)));
    } catch (LastErrorException e) {
      if (e.getErrorCode() == DirectoryCalls.ENOENT) {
        return Optional.empty();
      }
      throw openFailure(child, e.getErrorCode());
    }
  }

  /**
   * The status of this directory itself, through its descriptor: whatever has since happened to
   * its path, this is the directory that was opened.
   *
   * @throws NativeCallException {@link NativeCallException#DIRECTORY_NOT_READ} when it fails
   */
  public FileStatus status() {
    Buffers buffers = BUFFERS.get();
    buffers.view.put(Buffers.NAME, (byte) 0);
    try {
      DirectoryCalls.statx(
          descriptor(), buffers.address + Buffers.NAME, DirectoryCalls.AT_EMPTY_PATH | DirectoryCalls.AT_SYMLINK_NOFOLLOW,
          DirectoryCalls.STATX_BASIC_STATS, buffers.address + Buffers.STATX);
    } catch (LastErrorException e) {
      throw notRead("cannot read the status of " + description, e.getErrorCode());
    }
    FileStatus status = buffers.status();
    if (status == null) {
      throw fieldsMissing(description);
    }
    return status;
  }

  /**
   * Every entry of this directory with its status, in the file system's order. An entry removed
   * between the listing and its {@code statx} is left out, as if it had been removed before.
   *
   * @throws NativeCallException {@link NativeCallException#DIRECTORY_NOT_READ} when the listing,
   *     a status or a link target cannot be read
   */
  public List<Entry> list() {
    Buffers buffers = BUFFERS.get();
    ByteBuffer view = buffers.view;
    List<Entry> entries = new ArrayList<>();
    while (true) {
      long filled;
      try {
        filled = DirectoryCalls.getdents64(descriptor(), buffers.address + Buffers.LISTING, Buffers.LISTING_SIZE);
      } catch (LastErrorException e) {
        throw notRead("cannot list " + description, e.getErrorCode());
      }
      if (filled == 0) {
        return entries;
      }
      for (int record = Buffers.LISTING; record < Buffers.LISTING + filled; ) {
        // struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name.
        int length = Short.toUnsignedInt(view.getShort(record + 16));
        int nameStart = record + 19;
        record += length;
        int nameEnd = nameStart;
        while (view.get(nameEnd) != 0) {
          nameEnd++;
        }
        if (isDotOrDotDot(view, nameStart, nameEnd)) {
          continue;
        }
        Entry entry = entry(buffers, nameStart, nameEnd);
        if (entry != null) {
          entries.add(entry);
        }
      }
    }
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      DirectoryCalls.close(descriptor);
    }
  }

  private @Nullable Entry entry(Buffers buffers, int nameStart, int nameEnd) {
    byte[] name = new byte[nameEnd - nameStart];
    buffers.view.get(nameStart, name);
    long namePointer = buffers.address + nameStart;
    try {
      DirectoryCalls.statx(
          descriptor, namePointer, DirectoryCalls.AT_SYMLINK_NOFOLLOW, DirectoryCalls.STATX_BASIC_STATS,
          buffers.address + Buffers.STATX);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == DirectoryCalls.ENOENT) {
        return null;
      }
      throw notRead("cannot read the status of " + entryName(name), e.getErrorCode());
    }
    FileStatus status = buffers.status();
    if (status == null) {
      throw fieldsMissing(entryName(name));
    }
    if ((status.mode() & S_IFMT) != S_IFLNK) {
      return new Entry(name, status, null);
    }
    long read;
    try {
      read = DirectoryCalls.readlinkat(descriptor, namePointer, buffers.address + Buffers.LINK, Buffers.LINK_SIZE);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == DirectoryCalls.ENOENT) {
        return null;
      }
      throw notRead("cannot read the symbolic link " + entryName(name), e.getErrorCode());
    }
    if (read >= Buffers.LINK_SIZE) {
      throw new NativeCallException(
          NativeCallException.DIRECTORY_NOT_READ,
          "the target of the symbolic link " + entryName(name) + " is longer than " + (Buffers.LINK_SIZE - 1) + " bytes");
    }
    byte[] target = new byte[(int) read];
    buffers.view.get(Buffers.LINK, target);
    return new Entry(name, status, target);
  }

  private String entryName(byte[] name) {
    return description + "/" + new String(name, FILE_NAMES);
  }

  private int descriptor() {
    if (closed.get()) {
      throw new IllegalStateException("closed: " + description);
    }
    return descriptor;
  }

  private static boolean isDotOrDotDot(ByteBuffer view, int start, int end) {
    int length = end - start;
    return (length == 1 && view.get(start) == '.')
        || (length == 2 && view.get(start) == '.' && view.get(start + 1) == '.');
  }

  private static void requireName(byte[] name) {
    Objects.requireNonNull(name, "name");
    if (name.length == 0 || name.length > Buffers.NAME_MAX) {
      throw new IllegalArgumentException("a file name has 1 to " + Buffers.NAME_MAX + " bytes, not " + name.length);
    }
    for (byte b : name) {
      if (b == '/' || b == 0) {
        throw new IllegalArgumentException("a file name holds neither '/' nor NUL");
      }
    }
  }

  private static void requireNativeAccess() {
    Optional<String> problem = problem();
    if (problem.isPresent()) {
      throw new NativeCallException(NativeCallException.NATIVE_UNAVAILABLE, problem.get());
    }
  }

  /** The JVM's file name encoding, in which the JDK decodes and encodes names too. */
  private static Charset fileNameCharset() {
    try {
      return Charset.forName(System.getProperty("sun.jnu.encoding"));
    } catch (IllegalArgumentException e) {
      return Charset.defaultCharset();
    }
  }

  private static NativeCallException openFailure(String path, int errno) {
    if (errno == DirectoryCalls.ELOOP || errno == DirectoryCalls.ENOTDIR) {
      return new NativeCallException(
          NativeCallException.PATH_HAS_SYMLINK,
          "cannot open " + path + ": it is a symbolic link or not a directory; refusing to follow it");
    }
    return new NativeCallException(
        NativeCallException.PATH_NOT_OPENED, "cannot open the directory " + path + ": errno " + errno);
  }

  private static NativeCallException fieldsMissing(String what) {
    return new NativeCallException(
        NativeCallException.DIRECTORY_NOT_READ,
        "the file system did not report the type, mode, inode, size and times of " + what);
  }

  private static NativeCallException notRead(String what, int errno) {
    return new NativeCallException(NativeCallException.DIRECTORY_NOT_READ, what + ": errno " + errno);
  }

  /** One thread's native buffers: a listing, a name, a {@code struct statx}, a link target. */
  private static final class Buffers {
    static final int LISTING = 0;
    static final int LISTING_SIZE = 32 * 1024;
    static final int STATX = LISTING + LISTING_SIZE;
    static final int STATX_SIZE = 256;
    static final int NAME = STATX + STATX_SIZE;
    static final int NAME_MAX = 255;
    static final int LINK = NAME + NAME_MAX + 1;
    static final int LINK_SIZE = 8 * 1024;
    static final int SIZE = LINK + LINK_SIZE;

    final Memory memory = new Memory(SIZE);
    final long address = Pointer.nativeValue(memory);
    /** Reads the memory without a native call per field. */
    final ByteBuffer view = memory.getByteBuffer(0, SIZE).order(ByteOrder.nativeOrder());

    /**
     * The {@code struct statx} the last call filled; null when the file system left out a field
     * the status needs.
     */
    @Nullable FileStatus status() {
      int mask = view.getInt(STATX);
      if ((mask & REQUIRED_FIELDS) != REQUIRED_FIELDS) {
        return null;
      }
      return new FileStatus(
          Short.toUnsignedInt(view.getShort(STATX + 28)),
          view.getLong(STATX + 40),
          FileStatus.device(view.getInt(STATX + 136), view.getInt(STATX + 140)),
          view.getLong(STATX + 32),
          view.getLong(STATX + 112),
          view.getInt(STATX + 120),
          view.getLong(STATX + 96),
          view.getInt(STATX + 104));
    }
  }
}
