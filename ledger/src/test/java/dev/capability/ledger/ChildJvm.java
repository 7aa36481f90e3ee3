package dev.capability.ledger;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A {@link LedgerChild} in its own JVM, its stdout collected line by line. */
final class ChildJvm {
  final Process process;
  final List<String> lines = Collections.synchronizedList(new ArrayList<>());
  private final CountDownLatch ready = new CountDownLatch(1);
  private final Thread reader;

  private ChildJvm(Process process) {
    this.process = process;
    this.reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          lines.add(line);
          if (line.equals("ready")) {
            ready.countDown();
          }
        }
      } catch (IOException e) {
        // The child was killed mid-line; what was read is what it reported.
      }
    });
    reader.start();
  }

  /** Starts {@code LedgerChild} with {@code args}, behind {@code prefix} (for example {@code prlimit}) when given. */
  static ChildJvm start(List<String> prefix, String... args) throws IOException {
    List<String> command = new ArrayList<>(prefix);
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xshare:auto");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(LedgerChild.class.getName());
    command.addAll(List.of(args));
    return new ChildJvm(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
  }

  boolean awaitReady() throws InterruptedException {
    return ready.await(60, TimeUnit.SECONDS);
  }

  /** Waits for the child to end and for its output to be read. */
  int finish() throws InterruptedException {
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the child did not end within 120 s; output so far: " + lines);
    }
    reader.join(10_000);
    return process.exitValue();
  }

  /** SIGKILL, as {@code kill -9}. */
  void kill() {
    process.destroyForcibly();
  }

  /**
   * Waits until the child has reported a committed record, for up to 60 s: on a busy machine a
   * child may commit nothing in the random moments the torture test gives it.
   */
  boolean awaitCommitted() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (committed().isEmpty()) {
      if (System.nanoTime() - deadline >= 0 || !process.isAlive()) {
        return !committed().isEmpty();
      }
      Thread.sleep(10);
    }
    return true;
  }

  List<String> committed() {
    synchronized (lines) {
      return lines.stream().filter(l -> l.startsWith("committed ")).toList();
    }
  }
}
