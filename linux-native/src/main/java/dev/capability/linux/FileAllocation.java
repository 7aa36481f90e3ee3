package dev.capability.linux;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import dev.capability.linux.internal.StatxCall;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The disk space one file takes, read with {@code statx(2)} without following a symbolic link:
 * the blocks allocated to it, so a sparse file counts by what it really uses, not by its size.
 *
 * @param allocatedBytes bytes of the blocks allocated to the file ({@code st_blocks} × 512)
 * @param device the device it is on, as {@code major << 32 | minor}
 * @param inode its inode number
 * @param links how many names it has
 * @param directory true when it is a directory
 */
public record FileAllocation(
    long allocatedBytes, long device, long inode, long links, boolean directory) {
  private static final int S_IFMT = 0170000;
  private static final int S_IFDIR = 0040000;
  private static final int ENOENT = 2;
  private static final int ENOTDIR = 20;

  /**
   * The allocation of {@code path}; empty when nothing is there (any more).
   *
   * @throws IOException when it cannot be read, naming the path and the error number
   */
  public static Optional<FileAllocation> of(Path path) throws IOException {
    try (Memory buffer = new Memory(StatxCall.STATX_SIZE)) {
      int mask =
          StatxCall.STATX_TYPE
              | StatxCall.STATX_NLINK
              | StatxCall.STATX_INO
              | StatxCall.STATX_BLOCKS;
      if (StatxCall.INSTANCE.statx(
              StatxCall.AT_FDCWD, path.toString(), StatxCall.AT_SYMLINK_NOFOLLOW, mask, buffer)
          != 0) {
        int errno = Native.getLastError();
        if (errno == ENOENT || errno == ENOTDIR) {
          return Optional.empty();
        }
        throw new IOException("statx " + path + " failed: errno " + errno);
      }
      long device =
          (Integer.toUnsignedLong(buffer.getInt(StatxCall.OFFSET_DEV_MAJOR)) << 32)
              | Integer.toUnsignedLong(buffer.getInt(StatxCall.OFFSET_DEV_MINOR));
      int mode = Short.toUnsignedInt(buffer.getShort(StatxCall.OFFSET_MODE));
      return Optional.of(
          new FileAllocation(
              buffer.getLong(StatxCall.OFFSET_BLOCKS) * 512,
              device,
              buffer.getLong(StatxCall.OFFSET_INO),
              Integer.toUnsignedLong(buffer.getInt(StatxCall.OFFSET_NLINK)),
              (mode & S_IFMT) == S_IFDIR));
    }
  }
}
