package dev.capability.kernel.core.internal.audit;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.TreeFormatter;

/**
 * The Git tree id of a working tree: the id {@code git add -A && git write-tree} would print,
 * computed without writing the repository's index or object store.
 *
 * <p>What goes in: tracked files (even where ignore rules match them) as they are on disk now,
 * and untracked files and symbolic links that {@code .gitignore} files and {@code info/exclude}
 * do not ignore. Files are {@code 100644}, or {@code 100755} when the owner may execute them;
 * symbolic links are {@code 120000} blobs of their target; directories without anything to add
 * vanish; {@code .git} entries are skipped; nested repositories are gitlinks to their {@code
 * HEAD}, uninitialized submodules keep their index entry, skip-worktree entries come from the
 * index. Content is hashed as raw bytes: no clean filters, no end-of-line conversion.
 *
 * <p>Every included file is read: Git trusts its index's cached stat data to skip unchanged
 * files, but the index is writable by earlier commands, so this hash does not.
 */
public final class WorkingTreeHash {
  private static final Comparator<TreeEntry> GIT_ORDER = WorkingTreeHash::compareGitOrder;

  private final Path root;
  private final ObjectInserter.Formatter formatter = new ObjectInserter.Formatter();
  private final IgnoreRules ignores = new IgnoreRules();
  private final Map<String, Leaf> leaves = new HashMap<>();
  /** Regular files to hash once the walk has decided what goes in; hashed in parallel. */
  private final List<PendingFile> files = new ArrayList<>();
  private GitIndex index = GitIndex.empty();

  private WorkingTreeHash(Path root) {
    this.root = root;
  }

  /**
   * The 40-digit lower-case hex tree id of the working tree at {@code repository}.
   *
   * @throws AuditException {@code REPOSITORY_INVALID} when {@code repository} is not a readable
   *     directory; {@code SNAPSHOT_FAILED} when Git itself would refuse the tree (a path it does
   *     not accept, a nested repository without a commit, a FIFO where a file is tracked), when
   *     the index or Git directory is in a format this audit does not read, or when a file
   *     changed while it was hashed
   */
  public static String of(Path repository) {
    Path root = RepositoryFiles.root(repository);
    try {
      return new WorkingTreeHash(root).compute().name();
    } catch (IOException | UncheckedIOException e) {
      throw new AuditException(
          AuditException.SNAPSHOT_FAILED, "could not hash the working tree of " + root + ": " + e.getMessage(), e);
    }
  }

  private ObjectId compute() throws IOException {
    Optional<GitDirectory> git = GitDirectory.find(root);
    if (git.isEmpty() && Files.exists(root.resolve(".git"), LinkOption.NOFOLLOW_LINKS)) {
      throw failed(root.resolve(".git") + " exists but is neither a Git directory nor a 'gitdir:' file naming one");
    }
    if (git.isPresent()) {
      git.get().requireSupportedFormat();
      index = GitIndex.read(git.get().indexFile());
      Path exclude = git.get().excludeFile();
      Optional<PathState> state = RepositoryFiles.lstatIfPresent(exclude);
      if (state.isPresent()) {
        RepositoryFiles.ignoreFile(exclude, state.get()).ifPresent(ignores::setExcludes);
      }
    }
    walk(root, "");
    hashFiles();
    for (GitIndex.Entry entry : index.skipWorktreeEntries()) {
      leaves.put(entry.path(), new Leaf(entry.mode(), entry.id()));
    }
    return tree();
  }

  private void walk(Path dir, String rel) throws IOException {
    List<String> names = RepositoryFiles.names(dir);
    if (names.contains(".gitignore")) {
      Path file = dir.resolve(".gitignore");
      Optional<PathState> state = RepositoryFiles.lstatIfPresent(file);
      if (state.isPresent()) {
        RepositoryFiles.ignoreFile(file, state.get()).ifPresent(content -> ignores.addGitignore(rel, content));
      }
    }
    for (String name : names) {
      if (name.equals(".git")) {
        continue;
      }
      String path = RepositoryFiles.child(rel, name);
      Path child = dir.resolve(name);
      Optional<PathState> found = RepositoryFiles.lstatIfPresent(child);
      if (found.isEmpty()) {
        continue;
      }
      PathState state = found.get();
      switch (state.type()) {
        case FILE:
        case SYMLINK:
          if (index.tracks(path) || !ignores.isIgnored(path, false)) {
            include(path, child, state);
          }
          break;
        case DIRECTORY:
          directory(child, path);
          break;
        default:
          if (index.tracks(path)) {
            throw failed("git add refuses " + path + ": it is tracked but is now neither a file, a link nor a directory");
          }
      }
    }
  }

  private void directory(Path dir, String path) throws IOException {
    Optional<GitIndex.Entry> entry = index.entry(path);
    if (entry.isPresent() && entry.get().mode() == FileMode.GITLINK) {
      // An uninitialized submodule keeps the commit the index records, as in Git.
      ObjectId commit = GitDirectory.isRepository(dir) ? head(dir, path) : entry.get().id();
      leaves.put(path, new Leaf(FileMode.GITLINK, commit));
      return;
    }
    boolean ignored = ignores.isDirectoryIgnored(path);
    if (index.tracksBelow(path)) {
      walk(dir, path); // Git descends into a directory it tracks files in, nested repository or not.
    } else if (ignored) {
      return;
    } else if (GitDirectory.isRepository(dir)) {
      leaves.put(path, new Leaf(FileMode.GITLINK, head(dir, path)));
    } else {
      walk(dir, path);
    }
  }

  private ObjectId head(Path dir, String path) throws IOException {
    Optional<GitDirectory> nested = GitDirectory.find(dir);
    Optional<ObjectId> head = nested.isPresent() ? nested.get().head() : Optional.empty();
    return head.orElseThrow(() -> failed("git add refuses " + path + "/: it is a repository without a commit checked out"));
  }

  private void include(String path, Path file, PathState state) {
    if (state.type() == EntryType.SYMLINK) {
      byte[] target = state.linkTarget().orElseThrow().getBytes(StandardCharsets.UTF_8);
      leaves.put(path, new Leaf(FileMode.SYMLINK, formatter.idFor(Constants.OBJ_BLOB, target)));
    } else {
      files.add(new PendingFile(path, file, state));
    }
  }

  private void hashFiles() {
    List<Map.Entry<String, Leaf>> hashed = RepositoryFiles.READERS
        .submit(() -> files.parallelStream().map(WorkingTreeHash::blob).toList())
        .join();
    hashed.forEach(e -> leaves.put(e.getKey(), e.getValue()));
  }

  private static Map.Entry<String, Leaf> blob(PendingFile pending) {
    Path file = pending.file();
    PathState state = pending.state();
    ObjectId id;
    try {
      try (InputStream in = RepositoryFiles.open(file)) {
        id = new ObjectInserter.Formatter().idFor(Constants.OBJ_BLOB, state.size(), in);
        if (in.read() >= 0) {
          throw changedWhileHashed(file);
        }
      }
      PathState now = PathState.lstat(file);
      if (now.size() != state.size() || now.inode() != state.inode()
          || now.modifiedNanos() != state.modifiedNanos() || now.changedNanos() != state.changedNanos()) {
        throw changedWhileHashed(file);
      }
    } catch (EOFException | NoSuchFileException e) {
      throw changedWhileHashed(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    boolean executable = (state.mode() & 0100) != 0;
    return Map.entry(pending.path(), new Leaf(executable ? FileMode.EXECUTABLE_FILE : FileMode.REGULAR_FILE, id));
  }

  /** Builds the trees bottom-up from the leaves and returns the root tree's id. */
  private ObjectId tree() {
    Directory top = new Directory();
    for (Map.Entry<String, Leaf> e : leaves.entrySet()) {
      String[] parts = e.getKey().split("/", -1);
      Directory dir = top;
      for (int i = 0; i < parts.length - 1; i++) {
        requireAccepted(parts[i], false, e.getKey());
        if (dir.leaves.containsKey(parts[i])) {
          throw failed("the index makes " + e.getKey() + " a path below the file " + parts[i]);
        }
        dir = dir.directories.computeIfAbsent(parts[i], n -> new Directory());
      }
      String name = parts[parts.length - 1];
      requireAccepted(name, e.getValue().mode() == FileMode.SYMLINK, e.getKey());
      if (dir.directories.containsKey(name)) {
        throw failed("the index makes " + e.getKey() + " a file where the working tree has a directory");
      }
      dir.leaves.put(name, e.getValue());
    }
    return id(top);
  }

  private ObjectId id(Directory dir) {
    List<TreeEntry> entries = new ArrayList<>();
    dir.leaves.forEach((name, leaf) -> entries.add(new TreeEntry(utf8(name), leaf.mode(), leaf.id())));
    dir.directories.forEach((name, sub) -> entries.add(new TreeEntry(utf8(name), FileMode.TREE, id(sub))));
    entries.sort(GIT_ORDER);
    TreeFormatter tree = new TreeFormatter();
    for (TreeEntry entry : entries) {
      tree.append(entry.name(), entry.mode(), entry.id());
    }
    return formatter.idFor(tree);
  }

  /** Git's tree order: bytewise by name, a tree's name compared as if it ended in '/'. */
  private static int compareGitOrder(TreeEntry a, TreeEntry b) {
    int common = Math.min(a.name().length, b.name().length);
    int prefix = Arrays.compareUnsigned(a.name(), 0, common, b.name(), 0, common);
    if (prefix != 0) {
      return prefix;
    }
    return Integer.compare(charAfter(a, common), charAfter(b, common));
  }

  private static int charAfter(TreeEntry entry, int index) {
    if (index < entry.name().length) {
      return Byte.toUnsignedInt(entry.name()[index]);
    }
    return entry.mode() == FileMode.TREE ? '/' : 0;
  }

  private static void requireAccepted(String name, boolean symlink, String path) {
    Optional<String> refusal = GitPathRules.refusal(name, symlink);
    if (refusal.isPresent()) {
      throw failed("git add refuses " + path + ": " + refusal.get());
    }
  }

  private static byte[] utf8(String name) {
    return name.getBytes(StandardCharsets.UTF_8);
  }

  private static AuditException changedWhileHashed(Path file) {
    return failed(file + " changed while it was being hashed");
  }

  private static AuditException failed(String message) {
    return new AuditException(AuditException.SNAPSHOT_FAILED, message);
  }

  private record Leaf(FileMode mode, ObjectId id) {}

  private record PendingFile(String path, Path file, PathState state) {}

  private record TreeEntry(byte[] name, FileMode mode, ObjectId id) {}

  private static final class Directory {
    final Map<String, Leaf> leaves = new HashMap<>();
    final Map<String, Directory> directories = new HashMap<>();
  }
}
