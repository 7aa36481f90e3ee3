package dev.capability.linux.internal;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;

/**
 * The calls a directory walk makes for every entry, bound by JNA's direct mapping with every
 * argument a primitive (pointers as addresses), so that a call costs no more than the system
 * call's own entry: a walk of a large tree makes tens of thousands of them. A failed call throws
 * {@link LastErrorException} with its {@code errno}, except {@link #close}.
 *
 * <p>{@code getdents64} is glibc 2.30's; loading this class fails where it is missing.
 */
public final class DirectoryCalls {
  private static final boolean AARCH64 = System.getProperty("os.arch", "").equals("aarch64");

  public static final int AT_FDCWD = -100;
  public static final int AT_SYMLINK_NOFOLLOW = 0x100;
  public static final int AT_EMPTY_PATH = 0x1000;
  public static final int O_RDONLY = 0;
  /** Unlike most open flags, these two differ between x86-64 and aarch64. */
  public static final int O_DIRECTORY = AARCH64 ? 0x4000 : 0x10000;
  public static final int O_NOFOLLOW = AARCH64 ? 0x8000 : 0x20000;
  public static final int O_CLOEXEC = 0x80000;
  /** {@code STATX_BASIC_STATS}: type, mode, links, owner, times, inode, size, blocks. */
  public static final int STATX_BASIC_STATS = 0x7ff;
  public static final int ENOENT = 2;
  public static final int ENOTDIR = 20;
  public static final int ELOOP = 40;

  static {
    Native.register(DirectoryCalls.class, "c");
  }

  private DirectoryCalls() {}

  public static native int openat(int directory, long path, int flags, int mode) throws LastErrorException;

  public static native long getdents64(int directory, long buffer, long size) throws LastErrorException;

  public static native int statx(int directory, long path, int flags, int mask, long buffer)
      throws LastErrorException;

  public static native long readlinkat(int directory, long path, long buffer, long size)
      throws LastErrorException;

  /** Returns -1 on failure without the {@code errno}: nothing is left to do about a failed close. */
  public static native int close(int fd);
}
