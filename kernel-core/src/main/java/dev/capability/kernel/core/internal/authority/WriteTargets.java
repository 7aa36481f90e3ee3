package dev.capability.kernel.core.internal.authority;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** How a write target named in argv maps onto the repository, and whether a link stands in its way. */
final class WriteTargets {
  private WriteTargets() {}

  /**
   * The target's segments relative to the repository root, or empty when {@code operand} is not
   * an acceptable relative path (empty, absolute, home-relative, NUL, or with {@code ..}).
   *
   * @param workingDirectory the working directory relative to the repository root
   */
  static Optional<List<String>> segments(Path workingDirectory, String operand) {
    if (operand.isEmpty() || operand.startsWith("/") || operand.startsWith("~") || operand.indexOf('\0') >= 0) {
      return Optional.empty();
    }
    List<String> segments = new ArrayList<>();
    for (Path name : workingDirectory) {
      if (!name.toString().isEmpty()) {
        segments.add(name.toString());
      }
    }
    for (String segment : RepositoryPaths.segments(operand)) {
      if (segment.equals("..")) {
        return Optional.empty();
      }
      // "a//b", "./a" and "a/" name the same file as "a/b", "a" and "a": dropping these never widens.
      if (!segment.isEmpty() && !segment.equals(".")) {
        segments.add(segment);
      }
    }
    return Optional.of(segments);
  }

  /**
   * Why writing {@code segments} below {@code repository} would write somewhere else, if it would:
   * a symbolic link at any existing component, or a last component that is a regular file with
   * other hard links.
   */
  static Optional<String> linkProblem(Path repository, List<String> segments) {
    Path current = repository;
    for (int i = 0; i < segments.size(); i++) {
      current = current.resolve(segments.get(i));
      BasicFileAttributes attributes;
      try {
        attributes = Files.readAttributes(current, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        return Optional.empty();
      } catch (IOException e) {
        return Optional.of("cannot be inspected: " + e.getMessage());
      }
      if (attributes.isSymbolicLink()) {
        return Optional.of("goes through the symbolic link " + Printable.quote(repository.relativize(current).toString()));
      }
      if (i == segments.size() - 1 && attributes.isRegularFile() && linkCount(current) > 1) {
        return Optional.of("is a file with more than one hard link; writing it would change the other names too");
      }
      if (!attributes.isDirectory()) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  private static int linkCount(Path file) {
    try {
      return (Integer) Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | UnsupportedOperationException e) {
      // Without a link count the file cannot be shown to have one name only.
      return Integer.MAX_VALUE;
    }
  }
}
