package dev.capability.kernel.core.internal.audit;

import dev.capability.kernel.api.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * One walk of a working tree into a {@link RepositorySnapshot}, one fork-join task per directory:
 * the cost is one {@code lstat} per entry, and on a large tree spreading those over the cores is
 * what brings the walk near {@code git status}, which stats in parallel too. How directories are
 * read is the {@link TreeReader}'s business.
 */
final class SnapshotWalk {
  /**
   * Loose objects are immutable and named by their content, and there can be tens of thousands of
   * them; their fan-out directories are recorded as a whole (a new, removed or renamed object
   * changes the directory's times) instead of file by file.
   */
  private static final Pattern LOOSE_OBJECT_DIRECTORY = Pattern.compile("(?:.*/)?\\.git/objects/[0-9a-f]{2}");

  private static final Comparator<Item> BY_KEY = Comparator.comparing(item -> item.key);

  private final Path root;
  private final Instant started;
  private final long racyFromNanos;
  /** Paths the reference snapshot hashed: they are hashed again so the diff can compare content. */
  private final Set<String> hashedBefore;
  private final TreeReader reader;
  private final IgnoreRules ignores = new IgnoreRules();
  /**
   * The first failure of any directory's walk. Walks record it instead of throwing, so that every
   * walk still runs (at once returning) and releases its parent's listing, which may hold a
   * descriptor; the snapshot then fails with it.
   */
  private final AtomicReference<Exception> failure = new AtomicReference<>();

  SnapshotWalk(Path root, Instant started, Optional<RepositorySnapshot> reference, TreeReader reader) {
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
    this.reader = reader;
  }

  RepositorySnapshot run() throws IOException {
    DirectoryTask top = new DirectoryTask("", reader.listRoot(root), null, -1);
    RepositoryFiles.READERS.invoke(top);
    Exception failed = failure.get();
    if (failed instanceof IOException) {
      throw (IOException) failed;
    }
    if (failed != null) {
      throw (RuntimeException) failed;
    }
    List<Item> sorted = new ArrayList<>();
    top.appendInPathOrder(sorted);
    // Already in order: TreeMap builds itself from a sorted map in linear time, with no compares.
    TreeMap<String, PathState> entries = new TreeMap<>(new SortedEntries(sorted));
    readExcludes(entries);
    return new RepositorySnapshot(root, started, entries, ignores);
  }

  /**
   * One recorded entry, or the contents of one subdirectory, in a directory's listing; sorted by
   * {@link #key} within that directory, so that concatenating the directories in that order gives
   * every path in {@link String#compareTo} order without comparing full paths.
   */
  private static final class Item implements Map.Entry<String, PathState> {
    /**
     * The name for an entry, the name and a slash for a subdirectory's contents: {@code a}, {@code
     * a.b} and {@code a/x} sort as {@code a}, {@code a.b}, {@code a/}, so a directory's contents go
     * after the siblings whose names extend its own with a character below {@code /}.
     */
    final String key;
    final String path;
    final PathState state;
    /** For a subdirectory's contents, the walk of it; for a directory's entry, the same walk. */
    final DirectoryTask walk;

    Item(String key, String path, PathState state, DirectoryTask walk) {
      this.key = key;
      this.path = path;
      this.state = state;
      this.walk = walk;
    }

    boolean isContents() {
      return state == null;
    }

    @Override
    public String getKey() {
      return path;
    }

    @Override
    public PathState getValue() {
      return state;
    }

    @Override
    public PathState setValue(PathState value) {
      throw new UnsupportedOperationException("snapshot entries are immutable");
    }
  }

  /** Records the entries of one directory and walks its subdirectories in parallel. */
  private final class DirectoryTask extends RecursiveAction {
    private static final long serialVersionUID = 1L;

    private final String rel;
    /** This directory's listing once listed; the root's is listed before the walk starts. */
    private transient TreeReader.@Nullable Listing listing;
    /** The parent's listing, through which this directory is listed; null for the root. */
    private final transient TreeReader.@Nullable Listing parent;
    private final int index;
    private transient Item[] items = new Item[0];
    /** The directory was removed after its parent listed it: the snapshot did not see it. */
    private boolean vanished;

    DirectoryTask(String rel, TreeReader.@Nullable Listing listing, TreeReader.@Nullable Listing parent, int index) {
      this.rel = rel;
      this.listing = listing;
      this.parent = parent;
      this.index = index;
    }

    @Override
    protected void compute() {
      try {
        if (failure.get() == null) {
          walk();
        }
      } catch (IOException | RuntimeException e) {
        failure.compareAndSet(null, e);
      } finally {
        if (parent != null) {
          parent.release();
        }
      }
    }

    private void walk() throws IOException {
      if (listing == null) {
        listing = parent.listSubdirectory(index, rel);
        if (listing == null) {
          vanished = true;
          return;
        }
      }
      List<DirectoryTask> subdirectories = new ArrayList<>();
      try {
        List<TreeReader.Listed> entries = listing.entries();
        List<Item> found = new ArrayList<>(entries.size() + 8);
        for (int i = 0; i < entries.size(); i++) {
          TreeReader.Listed entry = entries.get(i);
          String path = RepositoryFiles.child(rel, entry.name());
          PathState state = record(path, entry.state());
          if (state == null) {
            continue;
          }
          DirectoryTask subdirectory = null;
          if (state.type() == EntryType.DIRECTORY && !isLooseObjectDirectory(path)) {
            subdirectory = new DirectoryTask(path, null, listing, i);
            subdirectories.add(subdirectory);
            found.add(new Item(entry.name() + "/", path, null, subdirectory));
          }
          found.add(new Item(entry.name(), path, state, subdirectory));
        }
        Item[] sorted = found.toArray(new Item[0]);
        Arrays.sort(sorted, BY_KEY);
        items = sorted;
      } catch (IOException | RuntimeException e) {
        listing.holdFor(0);
        throw e;
      }
      listing.holdFor(subdirectories.size());
      invokeAll(subdirectories);
      listing = null;
    }

    /** Appends this directory's entries and, recursively, its subdirectories', in path order. */
    void appendInPathOrder(List<Item> out) {
      for (Item item : items) {
        if (item.walk != null && item.walk.vanished) {
          continue;
        }
        if (item.isContents()) {
          item.walk.appendInPathOrder(out);
        } else {
          out.add(item);
        }
      }
    }
  }

  /**
   * Entries already sorted by path, handed to {@link TreeMap#TreeMap(SortedMap)}, which reads only
   * {@link #comparator}, {@link #size} and the entry iterator and then builds its tree in linear
   * time; nothing else uses this map.
   */
  private static final class SortedEntries extends AbstractMap<String, PathState>
      implements SortedMap<String, PathState> {
    private final List<Item> sorted;

    SortedEntries(List<Item> sorted) {
      this.sorted = sorted;
    }

    @Override
    public Comparator<? super String> comparator() {
      return null;
    }

    @Override
    public int size() {
      return sorted.size();
    }

    @Override
    public Set<Map.Entry<String, PathState>> entrySet() {
      return new AbstractSet<>() {
        @Override
        public Iterator<Map.Entry<String, PathState>> iterator() {
          return Collections.<Map.Entry<String, PathState>>unmodifiableList(sorted).iterator();
        }

        @Override
        public int size() {
          return sorted.size();
        }
      };
    }

    @Override
    public SortedMap<String, PathState> subMap(String fromKey, String toKey) {
      throw new UnsupportedOperationException();
    }

    @Override
    public SortedMap<String, PathState> headMap(String toKey) {
      throw new UnsupportedOperationException();
    }

    @Override
    public SortedMap<String, PathState> tailMap(String fromKey) {
      throw new UnsupportedOperationException();
    }

    @Override
    public String firstKey() {
      throw new UnsupportedOperationException();
    }

    @Override
    public String lastKey() {
      throw new UnsupportedOperationException();
    }
  }

  /** The entry's state as recorded, with its content hash where needed; null when it vanished. */
  private @Nullable PathState record(String path, PathState listed) throws IOException {
    PathState state = listed;
    if (needsHash(path, state)) {
      Path file = root.resolve(path);
      Optional<String> hash = state.type() == EntryType.FILE ? contentHash(file) : listingHash(file);
      if (hash.isEmpty()) {
        return null;
      }
      state = state.withContentHash(hash.get());
    }
    if (state.type() == EntryType.FILE && (path.equals(".gitignore") || path.endsWith("/.gitignore"))) {
      RepositoryFiles.ignoreFile(root.resolve(path), state)
          .ifPresent(content -> ignores.addGitignore(IgnoreRules.parentOf(path), content));
    }
    return state;
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

  private void readExcludes(Map<String, PathState> entries) throws IOException {
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
