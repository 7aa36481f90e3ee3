package dev.capability.linux.internal;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * glibc's {@code statx(2)} wrapper (glibc 2.28 and later). Its result, {@code struct statx}, has
 * one layout on every architecture, unlike {@code struct stat}.
 */
public interface StatxCall extends Library {
  /** The bound library; loading fails with {@link UnsatisfiedLinkError} where JNA cannot load. */
  StatxCall INSTANCE = Native.load("c", StatxCall.class);

  int AT_FDCWD = -100;
  int AT_SYMLINK_NOFOLLOW = 0x100;
  int STATX_TYPE = 0x1;
  int STATX_NLINK = 0x4;
  int STATX_INO = 0x100;
  int STATX_BLOCKS = 0x400;

  /** {@code sizeof(struct statx)}. */
  int STATX_SIZE = 256;
  int OFFSET_NLINK = 16;
  int OFFSET_MODE = 28;
  int OFFSET_INO = 32;
  int OFFSET_BLOCKS = 48;
  int OFFSET_DEV_MAJOR = 136;
  int OFFSET_DEV_MINOR = 140;

  int statx(int dirfd, String path, int flags, int mask, Pointer buffer);
}
