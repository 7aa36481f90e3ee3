package dev.capability.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;

/**
 * Who owns files and who may read them, for tests whose sandbox runs as another uid (as it does
 * when the JVM is root) or that give a repository to another uid.
 */
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

  /**
   * Makes {@code root} and everything below it readable by every uid: directories {@code
   * rwxr-xr-x}, everything else {@code rw-r--r--}, as a repository or package must be for a
   * sandbox that runs as another uid.
   */
  public static void readableByEveryone(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.toList()) {
        Files.setPosixFilePermissions(
            path, PosixFilePermissions.fromString(Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
