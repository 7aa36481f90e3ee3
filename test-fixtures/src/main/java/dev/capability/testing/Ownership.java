package dev.capability.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Who owns files, for tests that give a repository to another uid (which needs a root JVM). */
public final class Ownership {
  private Ownership() {}

  /**
   * The uid this JVM runs as.
   *
   * @throws AssertionError when {@code /proc/self} cannot be read
   */
  public static int currentUid() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException e) {
      throw new AssertionError("cannot read this process's uid", e);
    }
  }

  /** Gives {@code root} and everything below it to {@code uid}, links themselves rather than their targets. */
  public static void chownTree(Path root, int uid) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        Files.setAttribute(path, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
