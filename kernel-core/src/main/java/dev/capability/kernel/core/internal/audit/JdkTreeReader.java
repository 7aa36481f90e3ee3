package dev.capability.kernel.core.internal.audit;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Reads a tree through the JDK: each directory listed and each entry stated by absolute path with
 * the {@code unix} attribute view. Directories are listed by path, so a directory swapped for a
 * link to elsewhere during the walk would be followed; its identity is checked after listing and
 * the snapshot refused if it moved. The fallback where native access is unavailable.
 */
final class JdkTreeReader extends TreeReader {
  @Override
  Listing listRoot(Path root) throws IOException {
    Listing listing = list(root, PathState.lstat(root));
    if (listing == null) {
      throw new NoSuchFileException(root.toString());
    }
    return listing;
  }

  private static @Nullable Listing list(Path dir, PathState listed) throws IOException {
    List<Path> children;
    try {
      children = RepositoryFiles.children(dir);
    } catch (NoSuchFileException e) {
      return null;
    }
    List<Listed> entries = new ArrayList<>(children.size());
    List<Path> paths = new ArrayList<>(children.size());
    for (Path child : children) {
      Optional<PathState> state = RepositoryFiles.lstatIfPresent(child);
      if (state.isPresent()) {
        entries.add(new Listed(child.getFileName().toString(), state.get()));
        paths.add(child);
      }
    }
    PathState now = PathState.lstat(dir);
    if (now.type() != EntryType.DIRECTORY || now.device() != listed.device() || now.inode() != listed.inode()) {
      throw replaced(dir);
    }
    return new Listing() {
      @Override
      List<Listed> entries() {
        return entries;
      }

      @Override
      @Nullable Listing listSubdirectory(int index, String path) throws IOException {
        return list(paths.get(index), entries.get(index).state());
      }
    };
  }
}
