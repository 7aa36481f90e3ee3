package dev.capability.kernel.core.internal.audit;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;

/** Compares two snapshots of one repository path by path. */
final class SnapshotDiff {
  private final RepositorySnapshot before;
  private final RepositorySnapshot after;
  private final List<PathChange> changes = new ArrayList<>();

  private SnapshotDiff(RepositorySnapshot before, RepositorySnapshot after) {
    this.before = before;
    this.after = after;
  }

  static RepositoryChanges between(RepositorySnapshot before, RepositorySnapshot after) {
    SnapshotDiff diff = new SnapshotDiff(before, after);
    diff.mergeWalk(before.entries(), after.entries());
    return new RepositoryChanges(diff.changes);
  }

  /** Walks both sorted entry maps in step. */
  private void mergeWalk(NavigableMap<String, PathState> old, NavigableMap<String, PathState> now) {
    Iterator<Map.Entry<String, PathState>> a = old.entrySet().iterator();
    Iterator<Map.Entry<String, PathState>> b = now.entrySet().iterator();
    Map.Entry<String, PathState> x = next(a);
    Map.Entry<String, PathState> y = next(b);
    while (x != null || y != null) {
      int order = x == null ? 1 : y == null ? -1 : x.getKey().compareTo(y.getKey());
      if (order < 0) {
        add(x.getKey(), ChangeKind.DELETED, x.getValue(), x.getValue());
        x = next(a);
      } else if (order > 0) {
        add(y.getKey(), ChangeKind.CREATED, y.getValue(), y.getValue());
        y = next(b);
      } else {
        compare(x.getKey(), x.getValue(), y.getValue());
        x = next(a);
        y = next(b);
      }
    }
  }

  private void compare(String path, PathState was, PathState is) {
    if (was.type() != is.type()) {
      add(path, ChangeKind.TYPE_CHANGED, was, is);
      return;
    }
    switch (is.type()) {
      case SYMLINK:
        if (!was.linkTarget().equals(is.linkTarget())) {
          add(path, ChangeKind.RETARGETED, was, is);
        }
        return;
      case FILE:
        if (contentMayDiffer(was, is)) {
          add(path, ChangeKind.MODIFIED, was, is);
        }
        break;
      case DIRECTORY:
        if (SnapshotWalk.isLooseObjectDirectory(path) && contentMayDiffer(was, is)) {
          add(path, ChangeKind.MODIFIED, was, is);
        }
        break;
      default:
        if (was.device() != is.device() || was.inode() != is.inode()) {
          add(path, ChangeKind.MODIFIED, was, is);
        }
    }
    if (was.mode() != is.mode()) {
      add(path, ChangeKind.MODE_CHANGED, was, is);
    }
  }

  /**
   * Whether the content may have changed. Hashes decide when both sides have one. Otherwise any
   * move of size, inode or modification time counts, and so does a new change time, unless a mode
   * change explains it: the mode change is reported at the same path, so the path is never
   * silent. A hash on the old side only means the old side was racy and the new side was not taken
   * with {@link RepositorySnapshot#retake()}: undecidable, so counted as changed.
   */
  private static boolean contentMayDiffer(PathState was, PathState is) {
    if (was.contentHash().isPresent() && is.contentHash().isPresent()) {
      return !was.contentHash().equals(is.contentHash());
    }
    if (was.size() != is.size() || was.device() != is.device() || was.inode() != is.inode()
        || was.modifiedNanos() != is.modifiedNanos()) {
      return true;
    }
    if (was.changedNanos() != is.changedNanos() && was.mode() == is.mode()) {
      return true;
    }
    return was.contentHash().isPresent();
  }

  private void add(String path, ChangeKind kind, PathState was, PathState is) {
    changes.add(new PathChange(path, kind, is.type(), ignored(path, was, is)));
  }

  /**
   * Ignored under the rules of both snapshots: a command that adds an ignore rule for a path it
   * writes does not get that path flagged as ignored.
   */
  private boolean ignored(String path, PathState was, PathState is) {
    Optional<PathState> old = before.entry(path);
    Optional<PathState> now = after.entry(path);
    boolean oldDirectory = old.orElse(was).type() == EntryType.DIRECTORY;
    boolean newDirectory = now.orElse(is).type() == EntryType.DIRECTORY;
    return before.ignores().isIgnored(path, oldDirectory) && after.ignores().isIgnored(path, newDirectory);
  }

  private static <T> T next(Iterator<T> it) {
    return it.hasNext() ? it.next() : null;
  }
}
