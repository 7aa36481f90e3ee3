package dev.capability.linux.internal;

import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * The C library calls for an anonymous in-memory file: libseccomp exports a filter only to a
 * descriptor, and a memory file, unlike a pipe, never blocks the writer however large the program.
 */
public interface MemoryFiles extends Library {
  MemoryFiles INSTANCE = Native.load("c", MemoryFiles.class);

  int MFD_CLOEXEC = 1;
  int SEEK_SET = 0;

  int memfd_create(String name, int flags);

  long lseek(int fd, long offset, int whence);

  long read(int fd, byte[] buffer, long count);

  int close(int fd);
}
