package dev.capability.kernel.core.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The decision rules of the diff on stat data that a real file system cannot be made to produce. */
class SnapshotDiffTest {
  private static final Path ROOT = Path.of("/repo");

  private static PathState file(int mode, long size, long inode, long mtime, long ctime, String hash) {
    return new PathState(EntryType.FILE, mode, size, 1, inode, mtime, ctime, Optional.empty(), Optional.ofNullable(hash));
  }

  private static List<ChangeKind> kinds(PathState before, PathState after) {
    return kinds("f", before, after);
  }

  private static List<ChangeKind> kinds(String path, PathState before, PathState after) {
    RepositorySnapshot a = new RepositorySnapshot(ROOT, Instant.EPOCH, new TreeMap<>(Map.of(path, before)), new IgnoreRules());
    RepositorySnapshot b = new RepositorySnapshot(ROOT, Instant.EPOCH, new TreeMap<>(Map.of(path, after)), new IgnoreRules());
    return a.diff(b).changes().stream().map(PathChange::kind).toList();
  }

  @Test
  void identicalStatWithDifferentHashesIsAModification() {
    assertThat(kinds(file(0644, 4, 7, 100, 100, "aa"), file(0644, 4, 7, 100, 100, "bb"))).containsExactly(ChangeKind.MODIFIED);
  }

  @Test
  void equalHashesOverrideMovedTimesAndInodes() {
    assertThat(kinds(file(0644, 4, 7, 100, 100, "aa"), file(0644, 4, 8, 200, 300, "aa"))).isEmpty();
  }

  @Test
  void aNewChangeTimeAloneIsAModification() {
    assertThat(kinds(file(0644, 4, 7, 100, 100, null), file(0644, 4, 7, 100, 101, null))).containsExactly(ChangeKind.MODIFIED);
  }

  @Test
  void aModeChangeExplainsANewChangeTime() {
    assertThat(kinds(file(0644, 4, 7, 100, 100, null), file(0755, 4, 7, 100, 101, null))).containsExactly(ChangeKind.MODE_CHANGED);
  }

  @Test
  void aModeChangeDoesNotExplainANewModificationTime() {
    assertThat(kinds(file(0644, 4, 7, 100, 100, null), file(0755, 4, 7, 150, 150, null)))
        .containsExactly(ChangeKind.MODIFIED, ChangeKind.MODE_CHANGED);
  }

  @Test
  void aHashOnTheOldSideOnlyIsUndecidableAndCountsAsModified() {
    assertThat(kinds(file(0644, 4, 7, 100, 100, "aa"), file(0644, 4, 7, 100, 100, null))).containsExactly(ChangeKind.MODIFIED);
  }

  @Test
  void ordinaryDirectoriesChangeOnlyByMode() {
    PathState dir = new PathState(EntryType.DIRECTORY, 0755, 4096, 1, 9, 100, 100, Optional.empty(), Optional.empty());
    PathState touched = new PathState(EntryType.DIRECTORY, 0755, 4096, 1, 9, 200, 200, Optional.empty(), Optional.empty());
    PathState chmodded = new PathState(EntryType.DIRECTORY, 0700, 4096, 1, 9, 200, 200, Optional.empty(), Optional.empty());
    assertThat(kinds("d", dir, touched)).isEmpty();
    assertThat(kinds("d", dir, chmodded)).containsExactly(ChangeKind.MODE_CHANGED);
    assertThat(kinds(".git/objects/ab", dir, touched)).containsExactly(ChangeKind.MODIFIED);
  }
}
