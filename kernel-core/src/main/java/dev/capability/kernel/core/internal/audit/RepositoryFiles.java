package dev.capability.kernel.core.internal.audit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ForkJoinPool;

/**
 * File system reads shared by the snapshot and the tree hash, each refusing what it cannot
 * represent faithfully instead of guessing.
 */
final class RepositoryFiles {
  /**
   * Runs the per-file reads of a walk or a hash in parallel. Not the common pool: on two cores
   * that has one worker. Its threads are daemons and retire when idle.
   */
  static final ForkJoinPool READERS = new ForkJoinPool(Math.max(2, Runtime.getRuntime().availableProcessors()));

  private static final char REPLACEMENT = '\uFFFD';

  private RepositoryFiles() {}

  /**
   * The canonical path of the repository root.
   *
   * @throws AuditException {@code REPOSITORY_INVALID} when it is missing, unreadable or not a
   *     directory
   */
  static Path root(Path repository) {
    if (repository == null) {
      throw new AuditException(AuditException.REPOSITORY_INVALID, "no repository path was given");
    }
    Path canonical;
    try {
      canonical = repository.toRealPath();
    } catch (IOException e) {
      throw new AuditException(
          AuditException.REPOSITORY_INVALID,
          "the repository " + repository + " does not exist or cannot be read: " + e.getMessage(), e);
    }
    if (!Files.isDirectory(canonical, LinkOption.NOFOLLOW_LINKS)) {
      throw new AuditException(AuditException.REPOSITORY_INVALID, "the repository " + repository + " is not a directory");
    }
    if (!Files.isReadable(canonical) || !Files.isExecutable(canonical)) {
      throw new AuditException(AuditException.REPOSITORY_INVALID, "the repository " + repository + " cannot be listed");
    }
    return canonical;
  }

  /**
   * The entries of {@code directory}.
   *
   * @throws AuditException {@code SNAPSHOT_FAILED} for a name the JVM could not decode (it would
   *     stat a different file than the one listed)
   */
  static List<Path> children(Path directory) throws IOException {
    List<Path> children = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
      for (Path entry : entries) {
        if (entry.getFileName().toString().indexOf(REPLACEMENT) >= 0) {
          throw undecodableName(directory);
        }
        children.add(entry);
      }
    }
    return children;
  }

  static AuditException undecodableName(Object directory) {
    return new AuditException(
        AuditException.SNAPSHOT_FAILED,
        "a name in " + directory + " is not valid in the JVM's file name encoding ("
            + System.getProperty("sun.jnu.encoding") + "); run the kernel with a UTF-8 locale and rename the file");
  }

  /** The names of the entries of {@code directory}, checked as by {@link #children}. */
  static List<String> names(Path directory) throws IOException {
    List<String> names = new ArrayList<>();
    for (Path child : children(directory)) {
      names.add(child.getFileName().toString());
    }
    return names;
  }

  /** Opens a regular file for reading without following a symbolic link in its last component. */
  static InputStream open(Path file) throws IOException {
    return Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
  }

  /**
   * The content of an ignore file that {@code state} says is a regular file, or empty when it is
   * not one, has vanished, or is over Git's size limit (Git skips those too).
   */
  static Optional<byte[]> ignoreFile(Path file, PathState state) throws IOException {
    if (state.type() != EntryType.FILE || state.size() > IgnoreRules.MAX_IGNORE_FILE_BYTES) {
      return Optional.empty();
    }
    try (InputStream in = open(file)) {
      return Optional.of(in.readNBytes((int) IgnoreRules.MAX_IGNORE_FILE_BYTES));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /** Stat data of {@code path}, or empty when it vanished after being listed. */
  static Optional<PathState> lstatIfPresent(Path path) throws IOException {
    try {
      return Optional.of(PathState.lstat(path));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  static String child(String parent, String name) {
    return parent.isEmpty() ? name : parent + "/" + name;
  }
}
