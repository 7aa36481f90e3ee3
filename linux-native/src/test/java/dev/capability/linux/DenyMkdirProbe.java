package dev.capability.linux;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The main of a test's child JVM: starts a thread, installs a filter denying {@code mkdir} and
 * {@code mkdirat} with {@code EPERM} on the whole process, then makes a directory from the main
 * thread and from the thread that existed before the filter, and a plain file, and prints each
 * result as one line.
 */
public final class DenyMkdirProbe {
  private DenyMkdirProbe() {}

  public static void main(String[] args) throws InterruptedException {
    Path base = Path.of(args[0]);
    CountDownLatch installed = new CountDownLatch(1);
    String[] earlier = new String[1];
    Thread startedBefore =
        new Thread(
            () -> {
              try {
                installed.await();
                earlier[0] = attempt(() -> Files.createDirectory(base.resolve("from-earlier-thread")));
              } catch (InterruptedException e) {
                earlier[0] = "interrupted";
              }
            });
    startedBefore.start();

    SeccompFilter.builder().deny("mkdir", SeccompFilter.EPERM).deny("mkdirat", SeccompFilter.EPERM).build().installOnThisProcess();
    installed.countDown();
    startedBefore.join();

    System.out.println("main thread mkdir: " + attempt(() -> Files.createDirectory(base.resolve("from-main-thread"))));
    System.out.println("earlier thread mkdir: " + earlier[0]);
    System.out.println("file: " + attempt(() -> Files.createFile(base.resolve("plain-file"))));
  }

  private interface Attempt {
    void run() throws IOException;
  }

  private static String attempt(Attempt attempt) {
    try {
      attempt.run();
      return "created";
    } catch (FileSystemException e) {
      return "refused: " + e.getReason();
    } catch (IOException e) {
      return "failed: " + e;
    }
  }
}
