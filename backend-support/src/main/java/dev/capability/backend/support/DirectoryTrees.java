package dev.capability.backend.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removes the private directories the backends make per run or probe. */
public final class DirectoryTrees {
  private DirectoryTrees() {}

  /**
   * Deletes {@code root} and everything below it, deepest first, without following symbolic links
   * (a link a sandbox or container left is removed, never what it points to). An absent root is
   * nothing to do.
   *
   * @throws IOException when an entry cannot be listed or deleted; what was deleted stays deleted
   */
  public static void delete(Path root) throws IOException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
