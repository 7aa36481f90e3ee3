package dev.capability.linux.internal;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.ptr.IntByReference;
import dev.capability.linux.DescriptorSpawn;
import dev.capability.linux.NativeCallException;
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@link DescriptorSpawn}'s work: the file actions, the spawn, and the parent's pipe ends. */
public final class NativeSpawner {
  private static final byte[] DEV_NULL = CStrings.of("/dev/null");

  private NativeSpawner() {}

  /** See {@link DescriptorSpawn#start}. */
  public static Process start(DescriptorSpawn.Request request) {
    LibC libc = NativeLibraries.libc();
    int[] out = pipe(libc);
    int[] err;
    try {
      err = pipe(libc);
    } catch (NativeCallException e) {
      closeAll(libc, out);
      throw e;
    }
    int pid;
    try {
      pid = spawn(libc, request, out[1], err[1]);
    } catch (RuntimeException e) {
      closeAll(libc, out);
      closeAll(libc, err);
      throw e;
    }
    // Reopened before this JVM's write ends close, so that opening a pipe never waits for a writer.
    try {
      InputStream stdout = reopen(out[0]);
      InputStream stderr = reopen(err[0]);
      return new SpawnedProcess(libc, pid, stdout, stderr);
    } catch (NativeCallException e) {
      libc.kill(pid, SpawnedProcess.SIGKILL);
      libc.waitpid(pid, new IntByReference(), 0);
      throw e;
    } finally {
      closeAll(libc, out);
      closeAll(libc, err);
    }
  }

  private static int spawn(LibC libc, DescriptorSpawn.Request request, int out, int err) {
    List<Integer> handed = request.handed();
    // Each handed descriptor goes first to a number above every descriptor involved, so that no
    // move to 3, 4, ... can overwrite a descriptor still to be moved.
    int parking = Math.max(out, err);
    for (int descriptor : handed) {
      parking = Math.max(parking, descriptor);
    }
    parking = Math.max(parking, DescriptorSpawn.FIRST_HANDED_DESCRIPTOR + handed.size()) + 1;
    Memory actions = new Memory(LibC.FILE_ACTIONS_SIZE);
    Memory attributes = new Memory(LibC.SPAWN_ATTR_SIZE);
    check(libc.posix_spawn_file_actions_init(actions), "posix_spawn_file_actions_init");
    try {
      check(libc.posix_spawnattr_init(attributes), "posix_spawnattr_init");
      try {
        byte[] stdin =
            request.stdin().map(path -> CStrings.of(path.toString())).orElse(DEV_NULL);
        check(
            libc.posix_spawn_file_actions_addopen(actions, 0, stdin, LibC.O_RDONLY, 0),
            "addopen");
        check(libc.posix_spawn_file_actions_adddup2(actions, out, 1), "adddup2");
        check(libc.posix_spawn_file_actions_adddup2(actions, err, 2), "adddup2");
        for (int i = 0; i < handed.size(); i++) {
          check(
              libc.posix_spawn_file_actions_adddup2(actions, handed.get(i), parking + i),
              "adddup2");
        }
        for (int i = 0; i < handed.size(); i++) {
          check(
              libc.posix_spawn_file_actions_adddup2(actions, parking + i, request.childDescriptor(i)),
              "adddup2");
        }
        check(
            libc.posix_spawn_file_actions_addclosefrom_np(
                actions, DescriptorSpawn.FIRST_HANDED_DESCRIPTOR + handed.size()),
            "addclosefrom_np");
        check(
            libc.posix_spawn_file_actions_addchdir_np(
                actions, CStrings.of(request.directory().toString())),
            "addchdir_np");
        Memory none = new Memory(LibC.SIGSET_SIZE);
        Memory all = new Memory(LibC.SIGSET_SIZE);
        libc.sigemptyset(none);
        libc.sigfillset(all);
        check(libc.posix_spawnattr_setsigmask(attributes, none), "setsigmask");
        check(libc.posix_spawnattr_setsigdefault(attributes, all), "setsigdefault");
        check(
            libc.posix_spawnattr_setflags(
                attributes, (short) (LibC.POSIX_SPAWN_SETSIGMASK | LibC.POSIX_SPAWN_SETSIGDEF)),
            "setflags");
        List<String> environment = new ArrayList<>();
        for (Map.Entry<String, String> entry : request.environment().entrySet()) {
          environment.add(entry.getKey() + "=" + entry.getValue());
        }
        IntByReference pid = new IntByReference();
        int error =
            libc.posix_spawn(
                pid,
                CStrings.of(request.argv().get(0)),
                actions,
                attributes,
                CStrings.array(request.argv()),
                CStrings.array(environment));
        if (error != 0) {
          throw new NativeCallException(
              NativeCallException.SPAWN_FAILED,
              "cannot start "
                  + request.argv().get(0)
                  + ": posix_spawn failed with errno "
                  + error
                  + " (a missing or non-executable program, a missing working directory or"
                  + " stdin file, or a handed descriptor that is not open)");
        }
        return pid.getValue();
      } finally {
        libc.posix_spawnattr_destroy(attributes);
      }
    } finally {
      libc.posix_spawn_file_actions_destroy(actions);
    }
  }

  private static int[] pipe(LibC libc) {
    int[] ends = new int[2];
    if (libc.pipe2(ends, LibC.O_CLOEXEC) != 0) {
      throw new NativeCallException(
          NativeCallException.SPAWN_FAILED, "cannot create a pipe: errno " + Native.getLastError());
    }
    return ends;
  }

  private static InputStream reopen(int descriptor) {
    try {
      // Buffered as the JDK's own process streams are; also keeps FileInputStream.readAllBytes,
      // which seeks when the stream was opened by name, away from a pipe.
      return new BufferedInputStream(new FileInputStream("/proc/self/fd/" + descriptor));
    } catch (IOException e) {
      throw new NativeCallException(
          NativeCallException.SPAWN_FAILED,
          "cannot open the child's output pipe through /proc/self/fd: " + e.getMessage());
    }
  }

  private static void closeAll(LibC libc, int[] descriptors) {
    for (int descriptor : descriptors) {
      libc.close(descriptor);
    }
  }

  private static void check(int result, String call) {
    if (result != 0) {
      throw new NativeCallException(
          NativeCallException.SPAWN_FAILED, "posix_spawn set-up failed: " + call + " " + result);
    }
  }
}
