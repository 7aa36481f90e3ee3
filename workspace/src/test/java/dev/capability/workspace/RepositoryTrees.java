package dev.capability.workspace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** A directory tree as a comparable value: each path's type and content, links by target, never followed. */
final class RepositoryTrees {
  private RepositoryTrees() {}

  static Map<String, String> of(Path root) {
    Map<String, String> tree = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        String name = root.relativize(path).toString();
        if (Files.isSymbolicLink(path)) {
          tree.put(name, "link:" + Files.readSymbolicLink(path));
        } else if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
          tree.put(name, "dir");
        } else {
          tree.put(name, "file:" + Files.getPosixFilePermissions(path) + ":" + new String(Files.readAllBytes(path), StandardCharsets.UTF_8));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tree;
  }

  static void write(Path file, String content) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
