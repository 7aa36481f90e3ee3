package dev.capability.backend.support;

import dev.capability.kernel.api.backend.LaunchFailedException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every {@code .git} (directory or {@code gitdir:} file) below the writable roots, to be bound
 * read-only over itself like the repository's own: a nested repository's configuration and hooks
 * run code for every later git command that opens it, the host user's own included. A
 * {@code gitdir:} file's git directory is held too when it lies in a writable root, and so is the
 * common directory that git directory's {@code commondir} file names.
 *
 * <p>The search never follows a symbolic link and is bounded ({@value #MAX_DIRECTORIES}
 * directories, {@value #MAX_DEPTH} levels, {@value #MAX_ENTRIES} entries found). Beyond a bound, at
 * a directory it cannot read, or at a {@code .git} that is a symbolic link (a mount over it would
 * follow the link), the launch is refused rather than leave a {@code .git} writable.
 *
 * <p>Every sandboxing backend binds what it finds read-only over itself (bwrap, Docker).
 */
public final class NestedGitEntries {
  private NestedGitEntries() {}

  /** The most directories visited, over all writable roots. */
  public static final int MAX_DIRECTORIES = 1_000_000;
  /** The deepest level visited below a writable root. */
  public static final int MAX_DEPTH = 256;
  /** The most {@code .git} entries and git directories held read-only. */
  public static final int MAX_ENTRIES = 1_000;
  /** The most bytes read from a {@code gitdir:} or {@code commondir} file. */
  public static final int MAX_FILE_BYTES = 4096;

  private static final String DOT_GIT = ".git";
  private static final String GITDIR_PREFIX = "gitdir: ";

  /**
   * How far a search goes.
   *
   * @param directories the most directories visited
   * @param depth the deepest level visited
   * @param entries the most paths returned
   */
  public record Bounds(int directories, int depth, int entries) {
    /** The bounds every launch uses. */
    public static final Bounds DEFAULT = new Bounds(MAX_DIRECTORIES, MAX_DEPTH, MAX_ENTRIES);
  }

  /**
   * The {@code .git} entries below {@code writableRoots} and the git directories they lead to
   * inside a writable root, each once, in the order found.
   *
   * @throws LaunchFailedException beyond a bound, for a directory that cannot be read, or a
   *     {@code .git} that is a symbolic link
   */
  public static List<Path> find(List<Path> writableRoots, Bounds bounds) {
    Set<Path> found = new LinkedHashSet<>();
    int[] directories = {0};
    for (Path root : writableRoots) {
      try {
        Files.walkFileTree(root, EnumSet.noneOf(FileVisitOption.class), bounds.depth(), new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes) {
            if (++directories[0] > bounds.directories()) {
              throw new LaunchFailedException("more than " + bounds.directories() + " directories lie below the writable roots "
                  + writableRoots + "; the backend searches no further for .git entries to keep read-only");
            }
            if (isDotGit(directory)) {
              add(found, directory, bounds);
              return FileVisitResult.SKIP_SUBTREE;
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            if (attributes.isDirectory()) {
              throw new LaunchFailedException(file + " lies " + bounds.depth() + " levels below the writable root " + root
                  + "; the backend searches no deeper for .git entries to keep read-only");
            }
            if (!isDotGit(file)) {
              return FileVisitResult.CONTINUE;
            }
            if (attributes.isSymbolicLink()) {
              throw new LaunchFailedException(file + " is a symbolic link in the writable root " + root
                  + "; a read-only mount over it would follow the link, so the backend cannot keep it read-only");
            }
            add(found, file, bounds);
            if (attributes.isRegularFile()) {
              gitDirectory(file).filter(directory -> inAny(directory, writableRoots)).ifPresent(directory -> {
                add(found, directory, bounds);
                commonDirectory(directory).filter(common -> inAny(common, writableRoots)).ifPresent(common -> add(found, common, bounds));
              });
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) {
            throw new LaunchFailedException("cannot search " + file + " for .git entries to keep read-only: " + e, e);
          }
        });
      } catch (IOException e) {
        throw new LaunchFailedException("cannot search the writable root " + root + " for .git entries: " + e, e);
      }
    }
    return List.copyOf(found);
  }

  private static boolean isDotGit(Path path) {
    return path.getFileName() != null && path.getFileName().toString().equals(DOT_GIT);
  }

  private static boolean inAny(Path path, List<Path> roots) {
    return roots.stream().anyMatch(root -> HostPaths.within(path, root));
  }

  private static void add(Set<Path> found, Path path, Bounds bounds) {
    if (found.add(path) && found.size() > bounds.entries()) {
      throw new LaunchFailedException("more than " + bounds.entries() + " .git entries lie below the writable roots;"
          + " the backend keeps at most " + bounds.entries() + " read-only");
    }
  }

  /**
   * The directory a {@code gitdir:} file names, when it exists and is reached without a symbolic
   * link; a file git cannot use either leads nowhere.
   *
   * @throws LaunchFailedException when the way to it passes through a symbolic link
   */
  private static Optional<Path> gitDirectory(Path dotGit) {
    return named(dotGit, GITDIR_PREFIX).flatMap(text -> directory(dotGit.getParent(), text, dotGit));
  }

  /** The common directory a git directory's {@code commondir} file names, as {@link #gitDirectory}. */
  private static Optional<Path> commonDirectory(Path gitDirectory) {
    Path commondir = gitDirectory.resolve("commondir");
    if (!Files.isRegularFile(commondir, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    return named(commondir, "").flatMap(text -> directory(gitDirectory, text, commondir));
  }

  /** The path a small file names after {@code prefix}, stripped; empty when it does not start so or cannot be read. */
  private static Optional<String> named(Path file, String prefix) {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      bytes = in.readNBytes(MAX_FILE_BYTES + 1);
    } catch (IOException e) {
      return Optional.empty();
    }
    String text = new String(bytes, StandardCharsets.UTF_8).strip();
    if (bytes.length > MAX_FILE_BYTES || !text.startsWith(prefix) || text.length() == prefix.length()) {
      return Optional.empty();
    }
    return Optional.of(text.substring(prefix.length()));
  }

  private static Optional<Path> directory(Path base, String text, Path namedBy) {
    Path path;
    try {
      path = base.resolve(text).normalize();
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
    if (!path.isAbsolute() || HostPaths.firstMissing(path, "the git directory " + namedBy + " names").isPresent()
        || !Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    return Optional.of(path);
  }

  /** The paths of {@code found} not already at or below one of {@code held}. */
  public static List<Path> notBelow(List<Path> found, List<Path> held) {
    List<Path> remaining = new ArrayList<>();
    for (Path path : found) {
      if (held.stream().noneMatch(other -> HostPaths.within(path, other))) {
        remaining.add(path);
      }
    }
    return remaining;
  }
}
