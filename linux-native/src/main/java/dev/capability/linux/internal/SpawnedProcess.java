package dev.capability.linux.internal;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.ptr.IntByReference;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A child started by {@link NativeSpawner}, as a {@link Process}. One pooled daemon thread waits for
 * it without reaping ({@code waitid} with {@code WNOWAIT}), then reaps it under the lock that signals
 * take, so that a signal never reaches a reused pid.
 */
final class SpawnedProcess extends Process {
  static final int SIGTERM = 15;
  static final int SIGKILL = 9;

  /**
   * Daemon threads that wait for spawned children, kept for a minute and reused: starting a thread
   * per child costs a noticeable part of a short command's launch.
   */
  private static final ExecutorService WAITERS =
      new ThreadPoolExecutor(
          0,
          Integer.MAX_VALUE,
          60,
          TimeUnit.SECONDS,
          new SynchronousQueue<>(),
          task -> {
            Thread thread = new Thread(task, "capability-spawn-wait");
            thread.setDaemon(true);
            return thread;
          });

  private final LibC libc;
  private final int pid;
  private final InputStream stdout;
  private final InputStream stderr;
  private final OutputStream stdin;
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private final Object lock = new Object();
  private boolean reaped;

  SpawnedProcess(
      LibC libc, int pid, OutputStream stdin, InputStream stdout, InputStream stderr) {
    this.libc = libc;
    this.pid = pid;
    this.stdin = stdin;
    this.stdout = stdout;
    this.stderr = stderr;
    WAITERS.execute(this::awaitExit);
  }

  @Override
  public OutputStream getOutputStream() {
    return stdin;
  }

  @Override
  public InputStream getInputStream() {
    return stdout;
  }

  @Override
  public InputStream getErrorStream() {
    return stderr;
  }

  @Override
  public int waitFor() throws InterruptedException {
    try {
      return exit.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  @Override
  public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
    try {
      exit.get(timeout, unit);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  @Override
  public int exitValue() {
    Integer value = exit.getNow(null);
    if (value == null) {
      throw new IllegalThreadStateException("process " + pid + " has not exited");
    }
    return value;
  }

  @Override
  public void destroy() {
    signal(SIGTERM);
  }

  @Override
  public Process destroyForcibly() {
    signal(SIGKILL);
    return this;
  }

  @Override
  public boolean supportsNormalTermination() {
    return true;
  }

  @Override
  public boolean isAlive() {
    return !exit.isDone();
  }

  @Override
  public long pid() {
    return pid;
  }

  @Override
  public CompletableFuture<Process> onExit() {
    return exit.thenApply(status -> this);
  }

  @Override
  public ProcessHandle toHandle() {
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    return handle.orElseThrow(
        () -> new UnsupportedOperationException("process " + pid + " has exited"));
  }

  @Override
  public String toString() {
    return "SpawnedProcess[pid=" + pid + ", exitValue=" + exit.getNow(null) + "]";
  }

  private void signal(int signal) {
    synchronized (lock) {
      if (!reaped) {
        libc.kill(pid, signal);
      }
    }
  }

  private void awaitExit() {
    Memory siginfo = new Memory(LibC.SIGINFO_SIZE);
    while (libc.waitid(LibC.P_PID, pid, siginfo, LibC.WEXITED | LibC.WNOWAIT) != 0) {
      int error = Native.getLastError();
      if (error != LibC.EINTR) {
        exit.completeExceptionally(
            new IllegalStateException("waiting for process " + pid + " failed: errno " + error));
        return;
      }
    }
    IntByReference status = new IntByReference();
    int result;
    synchronized (lock) {
      result = libc.waitpid(pid, status, 0);
      reaped = true;
    }
    if (result != pid) {
      exit.completeExceptionally(
          new IllegalStateException(
              "reaping process " + pid + " failed: errno " + Native.getLastError()));
      return;
    }
    exit.complete(decode(status.getValue()));
  }

  /** The JDK's convention: the exit code, or 128 plus the signal that ended it. */
  private static int decode(int status) {
    int signal = status & 0x7f;
    return signal == 0 ? (status >> 8) & 0xff : 0x80 + signal;
  }
}
