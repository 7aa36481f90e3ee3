package dev.capability.linux.internal;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.ptr.IntByReference;
import dev.capability.linux.DescriptorSpawn;
import dev.capability.linux.NativeCallException;
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/** {@link DescriptorSpawn}'s work: the file actions, the spawn, and the parent's pipe ends. */
public final class NativeSpawner {
  private static final byte[] DEV_NULL = CStrings.of("/dev/null");

  private NativeSpawner() {}

  /** See {@link DescriptorSpawn#start}. */
  public static Process start(DescriptorSpawn.Request request) {
    LibC libc = NativeLibraries.libc();
    List<int[]> pipes = new ArrayList<>();
    try {
      pipes.add(pipe(libc));
      pipes.add(pipe(libc));
      if (request.stdinPipe()) {
        pipes.add(pipe(libc));
      }
    } catch (NativeCallException e) {
      pipes.forEach(ends -> closeAll(libc, ends));
      throw e;
    }
    int[] out = pipes.get(0);
    int[] err = pipes.get(1);
    OptionalInt in = request.stdinPipe() ? OptionalInt.of(pipes.get(2)[0]) : OptionalInt.empty();
    int pid;
    try {
      pid = spawn(libc, request, in, out[1], err[1]);
    } catch (RuntimeException e) {
      pipes.forEach(ends -> closeAll(libc, ends));
      throw e;
    }
    // Reopened before this JVM's other ends close, so that opening a pipe never waits for the
    // other side.
    try {
      InputStream stdout = reopen(out[0]);
      InputStream stderr = reopen(err[0]);
      OutputStream stdin =
          request.stdinPipe() ? reopenForWriting(pipes.get(2)[1]) : closedOutput();
      return new SpawnedProcess(libc, pid, stdin, stdout, stderr);
    } catch (NativeCallException e) {
      libc.kill(pid, SpawnedProcess.SIGKILL);
      libc.waitpid(pid, new IntByReference(), 0);
      throw e;
    } finally {
      pipes.forEach(ends -> closeAll(libc, ends));
    }
  }

  private static int spawn(
      LibC libc, DescriptorSpawn.Request request, OptionalInt in, int out, int err) {
    List<Integer> handed = request.handed();
    // Each handed descriptor goes first to a number above every descriptor involved, so that no
    // move to 3, 4, ... can overwrite a descriptor still to be moved.
    int parking = Math.max(Math.max(out, err), in.orElse(0));
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
        if (in.isPresent()) {
          check(libc.posix_spawn_file_actions_adddup2(actions, in.getAsInt(), 0), "adddup2");
        } else {
          byte[] stdin =
              request.stdin().map(path -> CStrings.of(path.toString())).orElse(DEV_NULL);
          check(
              libc.posix_spawn_file_actions_addopen(actions, 0, stdin, LibC.O_RDONLY, 0),
              "addopen");
        }
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
        int flags = LibC.POSIX_SPAWN_SETSIGMASK | LibC.POSIX_SPAWN_SETSIGDEF;
        if (request.newSession()) {
          // The child calls setsid() before it execs; the spawn fails if that fails.
          flags |= LibC.POSIX_SPAWN_SETSID;
        }
        check(libc.posix_spawnattr_setflags(attributes, (short) flags), "setflags");
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

  private static OutputStream reopenForWriting(int descriptor) {
    try {
      return new FileOutputStream("/proc/self/fd/" + descriptor);
    } catch (IOException e) {
      throw new NativeCallException(
          NativeCallException.SPAWN_FAILED,
          "cannot open the child's input pipe through /proc/self/fd: " + e.getMessage());
    }
  }

  private static OutputStream closedOutput() {
    OutputStream closed = OutputStream.nullOutputStream();
    try {
      closed.close();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return closed;
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
