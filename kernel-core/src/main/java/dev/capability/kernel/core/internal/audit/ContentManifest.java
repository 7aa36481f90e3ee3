package dev.capability.kernel.core.internal.audit;

import dev.capability.kernel.api.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What each path of a working tree holds, by content rather than stat data, so that it can be
 * kept and compared with a later walk long after the first (the start of a work-plan phase and
 * its verification). Every entry is recorded, ignored or not, except {@code .git} at any depth and
 * the ledger's {@code .capability} at the root: the kernel's own bookkeeping is not the project's
 * change. Symbolic links are recorded by target and never followed.
 *
 * <p>Each value is {@code dir}, {@code link:<target>}, or {@code file:<mode>:<sha256>} with the
 * octal permission bits; other entry types are {@code other:<type>}.
 */
public final class ContentManifest {
  private ContentManifest() {}

  /**
   * The manifest of the working tree at {@code repository}, by repository-relative path, sorted.
   *
   * @throws AuditException {@code REPOSITORY_INVALID} or {@code SNAPSHOT_FAILED}
   */
  public static Map<String, String> of(Path repository) {
    Path root = RepositoryFiles.root(repository);
    TreeMap<String, String> entries = new TreeMap<>();
    try {
      walk(root, "", entries);
    } catch (IOException | UncheckedIOException e) {
      throw new AuditException(AuditException.SNAPSHOT_FAILED, "could not read the working tree of " + root + ": " + e.getMessage(), e);
    }
    return entries;
  }

  /** The paths whose entry differs between {@code before} and {@code after}, sorted. */
  public static List<String> changedPaths(Map<String, String> before, Map<String, String> after) {
    Objects.requireNonNull(before, "before");
    Objects.requireNonNull(after, "after");
    TreeSet<String> paths = new TreeSet<>(before.keySet());
    paths.addAll(after.keySet());
    List<String> changed = new ArrayList<>();
    for (String path : paths) {
      if (!Objects.equals(before.get(path), after.get(path))) {
        changed.add(path);
      }
    }
    return changed;
  }

  /** Whether a manifest value is a regular file's. */
  public static boolean isFile(String value) {
    return value != null && value.startsWith("file:");
  }

  private static void walk(Path directory, String relative, Map<String, String> entries) throws IOException {
    for (String name : new TreeSet<>(RepositoryFiles.names(directory))) {
      if (name.equals(".git") || (relative.isEmpty() && name.equals(".capability"))) {
        continue;
      }
      String path = RepositoryFiles.child(relative, name);
      Path entry = directory.resolve(name);
      Optional<PathState> state = RepositoryFiles.lstatIfPresent(entry);
      if (state.isEmpty()) {
        continue;
      }
      switch (state.get().type()) {
        case DIRECTORY -> {
          entries.put(path, "dir");
          walk(entry, path, entries);
        }
        case SYMLINK -> entries.put(path, "link:" + state.get().linkTarget().orElseThrow());
        case FILE -> hash(entry).ifPresent(digest ->
            entries.put(path, "file:" + Integer.toOctalString(state.get().mode()) + ":" + digest));
        default -> entries.put(path, "other:" + state.get().type().name());
      }
    }
  }

  private static Optional<String> hash(Path file) throws IOException {
    MessageDigest digest = Sha256.newDigest();
    byte[] buffer = new byte[64 * 1024];
    try (InputStream in = RepositoryFiles.open(file)) {
      for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
        digest.update(buffer, 0, read);
      }
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    return Optional.of(Sha256.hex(digest));
  }
}
