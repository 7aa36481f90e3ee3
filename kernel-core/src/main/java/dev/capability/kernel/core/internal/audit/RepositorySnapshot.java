package dev.capability.kernel.core.internal.audit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;

/**
 * What a repository's working tree held at one moment, path by path, as stat data: every entry,
 * ignored or not, symbolic links recorded and never followed, and {@code .git} itself except the
 * files inside loose-object directories (see {@code docs/audit.md}).
 *
 * <p>Content is hashed only where stat data cannot decide: a file whose modification or change
 * time is not older than {@link #RACY_WINDOW} before the snapshot started could be rewritten
 * within the same timestamp tick without any stat field changing, so its content is hashed, as
 * Git does for "racily clean" entries. Take the second snapshot with {@link #retake()} so that
 * such files are hashed again and compared by content.
 *
 * <p>Usage: {@code before = RepositorySnapshot.take(repo)}, run the command, then {@code
 * before.diff(before.retake())}.
 */
public final class RepositorySnapshot {
  /**
   * How far before its start a snapshot treats timestamps as racy. Two seconds covers file
   * systems with one- and two-second timestamps and the lag of the kernel's coarse clock.
   */
  public static final Duration RACY_WINDOW = Duration.ofSeconds(2);

  private final Path root;
  private final Instant started;
  private final NavigableMap<String, PathState> entries;
  private final IgnoreRules ignores;

  RepositorySnapshot(Path root, Instant started, NavigableMap<String, PathState> entries, IgnoreRules ignores) {
    this.root = root;
    this.started = started;
    this.entries = Collections.unmodifiableNavigableMap(entries);
    this.ignores = ignores;
  }

  /**
   * Snapshots the working tree at {@code repository}.
   *
   * @throws AuditException {@code REPOSITORY_INVALID} when it is not a readable directory, {@code
   *     SNAPSHOT_FAILED} when an entry cannot be read or recorded faithfully
   */
  public static RepositorySnapshot take(Path repository) {
    return walk(RepositoryFiles.root(repository), Optional.empty());
  }

  /**
   * Snapshots the same repository again, hashing every file this snapshot hashed so that
   * {@link #diff} can compare racy files by content.
   */
  public RepositorySnapshot retake() {
    return walk(RepositoryFiles.root(root), Optional.of(this));
  }

  /**
   * What changed from this snapshot to {@code after}, a later snapshot of the same repository.
   *
   * @throws IllegalArgumentException when {@code after} is of another repository
   */
  public RepositoryChanges diff(RepositorySnapshot after) {
    Objects.requireNonNull(after, "after");
    if (!root.equals(after.root)) {
      throw new IllegalArgumentException("cannot diff snapshots of " + root + " and " + after.root);
    }
    return SnapshotDiff.between(this, after);
  }

  /** The canonical path of the repository root. */
  public Path root() {
    return root;
  }

  /** When the walk started. */
  public Instant started() {
    return started;
  }

  /** Every recorded path (repository-relative, POSIX), sorted. The root itself is not recorded. */
  public NavigableMap<String, PathState> entries() {
    return entries;
  }

  /** The state of {@code path}, if it existed. */
  public Optional<PathState> entry(String path) {
    return Optional.ofNullable(entries.get(path));
  }

  IgnoreRules ignores() {
    return ignores;
  }

  private static RepositorySnapshot walk(Path root, Optional<RepositorySnapshot> reference) {
    Instant started = Instant.now();
    try {
      return new SnapshotWalk(root, started, reference, TreeReader.PREFERRED).run();
    } catch (IOException | UncheckedIOException e) {
      throw new AuditException(
          AuditException.SNAPSHOT_FAILED, "could not snapshot " + root + ": " + e.getMessage(), e);
    }
  }
}
