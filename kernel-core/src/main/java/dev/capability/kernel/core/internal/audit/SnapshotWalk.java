package dev.capability.kernel.core.internal.audit;

import dev.capability.kernel.api.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RecursiveAction;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One walk of a working tree into a {@link RepositorySnapshot}, one fork-join task per directory:
 * the cost is one {@code lstat} per entry, and on a large tree spreading those over the cores is
 * what brings the walk near {@code git status}, which stats in parallel too.
 */
final class SnapshotWalk {
  /**
   * Loose objects are immutable and named by their content, and there can be tens of thousands of
   * them; their fan-out directories are recorded as a whole (a new, removed or renamed object
   * changes the directory's times) instead of file by file.
   */
  private static final Pattern LOOSE_OBJECT_DIRECTORY = Pattern.compile("(?:.*/)?\\.git/objects/[0-9a-f]{2}");

  private final Path root;
  private final Instant started;
  private final long racyFromNanos;
  /** Paths the reference snapshot hashed: they are hashed again so the diff can compare content. */
  private final Set<String> hashedBefore;
  private final Map<String, PathState> entries = new ConcurrentHashMap<>();
  private final IgnoreRules ignores = new IgnoreRules();

  SnapshotWalk(Path root, Instant started, Optional<RepositorySnapshot> reference) {
    this.root = root;
    this.started = started;
    Instant racyFrom = started.minus(RepositorySnapshot.RACY_WINDOW);
    this.racyFromNanos = Math.multiplyExact(racyFrom.getEpochSecond(), 1_000_000_000L) + racyFrom.getNano();
    this.hashedBefore = reference
        .map(r -> r.entries().entrySet().stream()
            .filter(e -> e.getValue().contentHash().isPresent())
            .map(Map.Entry::getKey)
            .collect(Collectors.toUnmodifiableSet()))
        .orElse(Set.of());
  }

  RepositorySnapshot run() throws IOException {
    PathState rootState = PathState.lstat(root);
    try {
      RepositoryFiles.READERS.invoke(new DirectoryTask("", rootState));
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    readExcludes();
    return new RepositorySnapshot(root, started, new TreeMap<>(entries), ignores);
  }

  /** Records the entries of one directory and walks its subdirectories in parallel. */
  private final class DirectoryTask extends RecursiveAction {
    private static final long serialVersionUID = 1L;

    private final String rel;
    private final transient PathState listed;

    DirectoryTask(String rel, PathState listed) {
      this.rel = rel;
      this.listed = listed;
    }

    @Override
    protected void compute() {
      try {
        walk();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private void walk() throws IOException {
      Path dir = rel.isEmpty() ? root : root.resolve(rel);
      List<Path> children;
      try {
        children = RepositoryFiles.children(dir);
      } catch (NoSuchFileException e) {
        entries.remove(rel); // removed after it was listed: the snapshot did not see it
        return;
      }
      List<DirectoryTask> subdirectories = new ArrayList<>();
      for (Path child : children) {
        String path = RepositoryFiles.child(rel, child.getFileName().toString());
        Optional<PathState> state = record(child, path);
        if (state.isPresent() && state.get().type() == EntryType.DIRECTORY && !isLooseObjectDirectory(path)) {
          subdirectories.add(new DirectoryTask(path, state.get()));
        }
      }
      requireSameDirectory(dir, listed);
      invokeAll(subdirectories);
    }
  }

  private Optional<PathState> record(Path file, String path) throws IOException {
    Optional<PathState> found = RepositoryFiles.lstatIfPresent(file);
    if (found.isEmpty()) {
      return found;
    }
    PathState state = found.get();
    if (needsHash(path, state)) {
      Optional<String> hash = state.type() == EntryType.FILE ? contentHash(file) : listingHash(file);
      if (hash.isEmpty()) {
        return Optional.empty();
      }
      state = state.withContentHash(hash.get());
    }
    entries.put(path, state);
    if (state.type() == EntryType.FILE && (path.equals(".gitignore") || path.endsWith("/.gitignore"))) {
      RepositoryFiles.ignoreFile(file, state)
          .ifPresent(content -> ignores.addGitignore(IgnoreRules.parentOf(path), content));
    }
    return Optional.of(state);
  }

  private boolean needsHash(String path, PathState state) {
    boolean hashable = state.type() == EntryType.FILE
        || (state.type() == EntryType.DIRECTORY && isLooseObjectDirectory(path));
    if (!hashable) {
      return false;
    }
    if (state.lastTouchedNanos() >= racyFromNanos) {
      return true;
    }
    return hashedBefore.contains(path);
  }

  private Optional<String> contentHash(Path file) throws IOException {
    MessageDigest digest = Sha256.newDigest();
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = RepositoryFiles.open(file)) {
      for (int n; (n = in.read(buffer)) > 0; ) {
        digest.update(buffer, 0, n);
      }
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    return Optional.of(Sha256.hex(digest));
  }

  private static Optional<String> listingHash(Path dir) throws IOException {
    List<String> names;
    try {
      names = RepositoryFiles.names(dir);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    Collections.sort(names);
    return Optional.of(Sha256.hex(String.join("\0", names).getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * Directories are listed by path, so a directory swapped for a link to elsewhere during the walk
   * would be followed; its identity is checked after listing and the snapshot refused if it moved.
   */
  private static void requireSameDirectory(Path dir, PathState listed) throws IOException {
    PathState now = PathState.lstat(dir);
    if (now.type() != EntryType.DIRECTORY || now.device() != listed.device() || now.inode() != listed.inode()) {
      throw new AuditException(
          AuditException.SNAPSHOT_FAILED, dir + " was replaced while it was being snapshotted; nothing can be audited while the tree is changing");
    }
  }

  private void readExcludes() throws IOException {
    PathState dotGit = entries.get(".git");
    if (dotGit == null) {
      return;
    }
    Path exclude;
    if (dotGit.type() == EntryType.DIRECTORY) {
      exclude = root.resolve(".git/info/exclude");
    } else {
      Optional<GitDirectory> git = GitDirectory.find(root);
      if (git.isEmpty()) {
        return;
      }
      exclude = git.get().excludeFile();
    }
    Optional<PathState> state = RepositoryFiles.lstatIfPresent(exclude);
    if (state.isPresent()) {
      RepositoryFiles.ignoreFile(exclude, state.get()).ifPresent(ignores::setExcludes);
    }
  }

  static boolean isLooseObjectDirectory(String path) {
    return LOOSE_OBJECT_DIRECTORY.matcher(path).matches();
  }
}
