package dev.capability.egress.internal;

import io.netty.util.concurrent.FastThreadLocalThread;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes a session's daemon threads, named {@code prefix-N}, and remembers them so that closing the
 * session can wait until each has ended: an executor reports termination just before its threads
 * exit.
 */
final class TrackingThreadFactory implements ThreadFactory {
  private final String prefix;
  private final AtomicInteger next = new AtomicInteger();
  private final List<Thread> threads = new ArrayList<>();

  TrackingThreadFactory(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public Thread newThread(Runnable task) {
    Thread thread = new FastThreadLocalThread(task, prefix + "-" + next.incrementAndGet());
    thread.setDaemon(true);
    synchronized (threads) {
      threads.removeIf(made -> made.getState() == Thread.State.TERMINATED); // idle resolver threads come and go
      threads.add(thread);
    }
    return thread;
  }

  /** Waits up to {@code timeout} in all for every thread made to end; whether all did. */
  boolean joinAll(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<Thread> made;
    synchronized (threads) {
      made = List.copyOf(threads);
    }
    for (Thread thread : made) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        break;
      }
      try {
        thread.join(Math.max(1, left / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return made.stream().noneMatch(Thread::isAlive);
  }
}
