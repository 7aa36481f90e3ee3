package dev.capability.kernel.core.internal.audit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything that differs between two snapshots of one repository, sorted by path and then by
 * kind. Ignored paths are included and flagged, never dropped.
 */
public record RepositoryChanges(List<PathChange> changes) {
  private static final Comparator<PathChange> ORDER =
      Comparator.comparing(PathChange::path).thenComparing(PathChange::kind);

  public RepositoryChanges {
    Objects.requireNonNull(changes, "changes");
    List<PathChange> sorted = new ArrayList<>(changes);
    sorted.sort(ORDER);
    changes = List.copyOf(sorted);
  }

  /** True when the two snapshots agree on every path. */
  public boolean isEmpty() {
    return changes.isEmpty();
  }

  /** The changes of the given kinds, in order. */
  public List<PathChange> ofKind(ChangeKind first, ChangeKind... more) {
    Set<ChangeKind> kinds = EnumSet.of(first, more);
    return changes.stream().filter(c -> kinds.contains(c.kind())).toList();
  }

  /** Every changed path once, in order. */
  public List<String> paths() {
    Set<String> paths = new LinkedHashSet<>();
    changes.forEach(c -> paths.add(c.path()));
    return List.copyOf(paths);
  }

  /**
   * Paths whose current content should be looked at: regular files created, modified, made
   * regular files by a type change, or whose mode changed (a mode change also explains a new
   * change time, so content written with the old modification time restored hides behind it).
   */
  public List<String> filesWithNewContent() {
    Set<String> paths = new LinkedHashSet<>();
    for (PathChange c : changes) {
      if (c.type() == EntryType.FILE && c.kind() != ChangeKind.DELETED) {
        paths.add(c.path());
      }
    }
    return List.copyOf(paths);
  }
}
