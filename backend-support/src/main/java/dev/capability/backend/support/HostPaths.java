package dev.capability.backend.support;

import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Host paths walked one component at a time without following symlinks. A bind source that is, or
 * passes through, a symlink is refused: a symlink planted by one sandbox or container in its writable root must
 * not redirect the mounts of the next.
 */
public final class HostPaths {
  private HostPaths() {}

  /** What a walk found. */
  public enum Kind {
    DIRECTORY,
    FILE,
    OTHER
  }

  /**
   * The kind of {@code path} after checking that no component of it is a symlink.
   *
   * @throws LaunchFailedException when a component is a symlink, the path does not exist, or it
   *     cannot be read
   */
  public static Kind requireNoSymlink(Path path, String what) {
    Walk walk = walk(path, what);
    if (walk.firstMissing().isPresent()) {
      throw new LaunchFailedException(what + " " + path + " does not exist");
    }
    return walk.kind();
  }

  /**
   * The first component of {@code path} that does not exist, if any, after checking that no
   * existing component is a symlink.
   */
  public static Optional<Path> firstMissing(Path path, String what) {
    return walk(path, what).firstMissing();
  }

  /** The attributes of {@code path} itself (a symlink is not followed), or empty when it cannot be read. */
  public static Optional<BasicFileAttributes> attributes(Path path) {
    try {
      return Optional.of(Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The spec's protected paths that a writable root exposes (one lies at or below the other), each
   * checked to be absolute, normal and inside the repository. A protected path no writable root
   * exposes needs no protection, wherever it is (a linked worktree's git directory lives outside
   * the repository).
   *
   * @throws LaunchFailedException when paths are protected but the spec names no repository, or an
   *     exposed one lies outside the repository
   */
  public static List<Path> exposedProtectedPaths(LaunchSpec spec) {
    List<Path> protectedPaths = spec.protectedPaths();
    if (protectedPaths.isEmpty()) {
      return List.of();
    }
    Path repository = spec.repository()
        .orElseThrow(() -> new LaunchFailedException("the spec protects " + protectedPaths + " but names no repository"));
    List<Path> exposed = new ArrayList<>();
    for (Path path : protectedPaths) {
      requireNormalAbsolute(path, "protected path");
      if (spec.writableRoots().stream().noneMatch(root -> within(path, root) || within(root, path))) {
        continue;
      }
      if (!within(path, repository)) {
        throw new LaunchFailedException(
            "protected path " + path + " is outside the repository " + repository + " but under a writable root");
      }
      exposed.add(path);
    }
    return exposed;
  }

  /** True when {@code path} is {@code ancestor} or lies below it. */
  public static boolean within(Path path, Path ancestor) {
    return path.startsWith(ancestor);
  }

  /** Requires an absolute path with no {@code .} or {@code ..} components. */
  public static Path requireNormalAbsolute(Path path, String what) {
    if (!path.isAbsolute() || !path.normalize().equals(path)) {
      throw new LaunchFailedException(what + " " + path + " must be absolute, without . or ..");
    }
    return path;
  }

  private record Walk(Kind kind, Optional<Path> firstMissing) {}

  private static Walk walk(Path path, String what) {
    requireNormalAbsolute(path, what);
    Path current = path.getRoot();
    BasicFileAttributes attributes = attributes(current, path, what);
    for (Path name : path) {
      current = current.resolve(name);
      try {
        attributes =
            Files.readAttributes(current, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        return new Walk(Kind.OTHER, Optional.of(current));
      } catch (IOException e) {
        throw new LaunchFailedException(
            "cannot inspect " + current + " on the way to " + what + " " + path + ": " + e, e);
      }
      if (attributes.isSymbolicLink()) {
        throw new LaunchFailedException(
            what
                + " "
                + path
                + " is or passes through the symlink "
                + current
                + "; bind sources are never resolved through symlinks");
      }
    }
    Kind kind =
        attributes.isDirectory()
            ? Kind.DIRECTORY
            : attributes.isRegularFile() ? Kind.FILE : Kind.OTHER;
    return new Walk(kind, Optional.empty());
  }

  private static BasicFileAttributes attributes(Path current, Path path, String what) {
    try {
      return Files.readAttributes(current, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      throw new LaunchFailedException(
          "cannot inspect " + current + " on the way to " + what + " " + path + ": " + e, e);
    }
  }
}
