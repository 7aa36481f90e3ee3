package dev.capability.linux.internal;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.StringArray;
import com.sun.jna.ptr.IntByReference;

/**
 * The C library calls the project makes (paths as NUL-terminated bytes, see {@link CStrings}), bound by JNA, which saves {@code errno} after each call
 * ({@code Native.getLastError()}). Sizes and constants are those of glibc on x86-64 and aarch64,
 * which agree for everything used here except {@link #O_NOFOLLOW} and {@link #O_DIRECTORY}.
 */
public interface LibC extends Library {
  int O_RDONLY = 0;
  int O_WRONLY = 1;
  int O_NONBLOCK = 0x800;
  /** Unlike the other flags here, these two differ: aarch64 has its own values (asm/fcntl.h). */
  int O_NOFOLLOW = System.getProperty("os.arch", "").equals("aarch64") ? 0x8000 : 0x20000;
  int O_DIRECTORY = System.getProperty("os.arch", "").equals("aarch64") ? 0x4000 : 0x10000;
  int O_CLOEXEC = 0x80000;
  int O_PATH = 0x200000;
  int AT_FDCWD = -100;
  int MFD_CLOEXEC = 1;
  int SEEK_SET = 0;

  int EINTR = 4;
  int ENOENT = 2;
  int ECHILD = 10;
  int ELOOP = 40;
  int ENOTDIR = 20;

  int P_PID = 1;
  int WEXITED = 4;
  int WNOWAIT = 0x01000000;

  int POSIX_SPAWN_SETSIGDEF = 0x04;
  int POSIX_SPAWN_SETSIGMASK = 0x08;
  int POSIX_SPAWN_SETSID = 0x80;

  /** glibc's {@code sizeof(posix_spawn_file_actions_t)} is 80; room to spare. */
  int FILE_ACTIONS_SIZE = 256;

  /** glibc's {@code sizeof(posix_spawnattr_t)} is 336; room to spare. */
  int SPAWN_ATTR_SIZE = 1024;

  /** glibc's {@code sizeof(sigset_t)}. */
  int SIGSET_SIZE = 128;

  /** glibc's {@code sizeof(siginfo_t)}. */
  int SIGINFO_SIZE = 128;

  int openat(int dirfd, byte[] path, int flags, int mode);

  int close(int fd);

  int memfd_create(byte[] name, int flags);

  long lseek(int fd, long offset, int whence);

  int pipe2(int[] fds, int flags);

  long write(int fd, byte[] buffer, long count);

  long read(int fd, byte[] buffer, long count);

  int kill(int pid, int signal);

  int waitid(int idtype, int id, Pointer siginfo, int options);

  int waitpid(int pid, IntByReference status, int options);

  int posix_spawn_file_actions_init(Pointer actions);

  int posix_spawn_file_actions_destroy(Pointer actions);

  int posix_spawn_file_actions_adddup2(Pointer actions, int fd, int newfd);

  int posix_spawn_file_actions_addopen(
      Pointer actions, int fd, byte[] path, int flags, int mode);

  int posix_spawn_file_actions_addchdir_np(Pointer actions, byte[] path);

  int posix_spawn_file_actions_addclosefrom_np(Pointer actions, int from);

  int posix_spawnattr_init(Pointer attr);

  int posix_spawnattr_destroy(Pointer attr);

  int posix_spawnattr_setflags(Pointer attr, short flags);

  int posix_spawnattr_setsigmask(Pointer attr, Pointer sigset);

  int posix_spawnattr_setsigdefault(Pointer attr, Pointer sigset);

  int sigemptyset(Pointer set);

  int sigfillset(Pointer set);

  int posix_spawn(
      IntByReference pid,
      byte[] path,
      Pointer fileActions,
      Pointer attr,
      StringArray argv,
      StringArray envp);
}
