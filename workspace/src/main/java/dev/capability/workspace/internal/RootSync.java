package dev.capability.workspace.internal;

import dev.capability.workspace.WorkspaceCodes;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Makes each writable root of the repository equal to its staged copy: files created or replaced,
 * files and directories the copy lacks removed, never following a symbolic link of the local tree
 * and never touching a protected path. Files get mode 0755 or 0644, directories 0755; a file whose
 * content and executable bit are unchanged is left as it is.
 */
final class RootSync {
  private static final Set<PosixFilePermission> DIRECTORY_MODE = PosixFilePermissions.fromString("rwxr-xr-x");
  private static final int NOBODY = 65534;
  private static final boolean KERNEL_IS_ROOT = kernelIsRoot();

  private final WorkspaceLayout layout;
  private final List<String> created = new ArrayList<>();
  private final List<String> changed = new ArrayList<>();
  private final List<String> removed = new ArrayList<>();

  RootSync(WorkspaceLayout layout) {
    this.layout = layout;
  }

  List<String> created() {
    return sorted(created);
  }

  List<String> changed() {
    return sorted(changed);
  }

  List<String> removed() {
    return sorted(removed);
  }

  private static List<String> sorted(List<String> paths) {
    return List.copyOf(new TreeSet<>(paths));
  }

  /** @throws ArchiveRefusal {@link WorkspaceCodes#RETURN_APPLY_FAILED} when a root cannot be reached safely or a write fails */
  void apply(Path staging) {
    for (String root : layout.roots()) {
      requireRealDirectories(root);
    }
    try {
      for (String root : layout.roots()) {
        Path local = layout.resolve(root);
        if (attributes(local).isEmpty()) {
          createDirectories(root);
        }
        sync(root.isEmpty() ? staging : staging.resolve(root), local, root);
      }
    } catch (IOException e) {
      throw new ArchiveRefusal(WorkspaceCodes.RETURN_APPLY_FAILED,
          "applying the returned archive failed part way, the writable roots may hold part of it: " + e);
    }
  }

  /** Every existing component from the repository down to {@code root} must be a directory, not a link. */
  private void requireRealDirectories(String root) {
    String path = "";
    for (String segment : root.isEmpty() ? new String[0] : root.split("/")) {
      path = path.isEmpty() ? segment : path + "/" + segment;
      Optional<BasicFileAttributes> attrs;
      try {
        attrs = attributes(layout.resolve(path));
      } catch (IOException e) {
        throw new ArchiveRefusal(WorkspaceCodes.RETURN_APPLY_FAILED, "'" + path + "' cannot be read, nothing was applied: " + e.getMessage());
      }
      if (attrs.isEmpty()) {
        return;
      }
      if (!attrs.get().isDirectory()) {
        throw new ArchiveRefusal(WorkspaceCodes.RETURN_APPLY_FAILED,
            "'" + path + "', on the way to the writable root '" + root + "', is not a directory (a symbolic link?), nothing was applied");
      }
    }
  }

  private void createDirectories(String root) throws IOException {
    String path = "";
    for (String segment : root.split("/")) {
      path = path.isEmpty() ? segment : path + "/" + segment;
      Path local = layout.resolve(path);
      if (attributes(local).isEmpty()) {
        Files.createDirectory(local);
        Files.setPosixFilePermissions(local, DIRECTORY_MODE);
        ownAsTheSandbox(local);
        created.add(path);
      }
    }
  }

  private void sync(Path staged, Path local, String relative) throws IOException {
    TreeSet<String> stagedNames = names(staged);
    for (String name : names(local)) {
      String path = child(relative, name);
      if (!stagedNames.contains(name) && !layout.isProtected(path)) {
        remove(local.resolve(name), path);
      }
    }
    for (String name : stagedNames) {
      String path = child(relative, name);
      Path from = staged.resolve(name);
      Path to = local.resolve(name);
      BasicFileAttributes source = attributes(from).orElseThrow(() -> new NoSuchFileException(from.toString()));
      Optional<BasicFileAttributes> existing = attributes(to);
      if (source.isDirectory()) {
        if (existing.isEmpty() || !existing.get().isDirectory()) {
          replaceBy(to, path, existing, () -> {
            Files.createDirectory(to);
            Files.setPosixFilePermissions(to, DIRECTORY_MODE);
          });
        }
        sync(from, to, path);
      } else if (source.isSymbolicLink()) {
        Path target = Files.readSymbolicLink(from);
        if (existing.isEmpty() || !existing.get().isSymbolicLink() || !Files.readSymbolicLink(to).equals(target)) {
          replaceBy(to, path, existing, () -> Files.createSymbolicLink(to, target));
        }
      } else if (existing.isEmpty() || !existing.get().isRegularFile() || !sameFile(from, to)) {
        replaceBy(to, path, existing, () -> Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS));
      }
    }
  }

  private interface Write {
    void run() throws IOException;
  }

  private void replaceBy(Path to, String path, Optional<BasicFileAttributes> existing, Write write) throws IOException {
    if (existing.isPresent()) {
      if (!remove(to, path)) {
        throw new IOException("'" + path + "' holds a protected path and cannot be replaced");
      }
      removed.remove(path);
      changed.add(path);
    } else {
      created.add(path);
    }
    write.run();
    ownAsTheSandbox(to);
  }

  /**
   * A kernel running as root writes what a command wrote as the user bwrap's sandbox runs as
   * (nobody), not as root: the command must not get root-owned files on the host out of a remote
   * run, as it cannot out of a local one (the contract's NON_ROOT). Any other kernel writes them as
   * itself, its own user, as a local sandbox of that user would.
   */
  private static void ownAsTheSandbox(Path written) throws IOException {
    if (KERNEL_IS_ROOT) {
      Files.setAttribute(written, "unix:uid", NOBODY, LinkOption.NOFOLLOW_LINKS);
      Files.setAttribute(written, "unix:gid", NOBODY, LinkOption.NOFOLLOW_LINKS);
    }
  }

  private static boolean kernelIsRoot() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean sameFile(Path staged, Path local) throws IOException {
    boolean stagedExecutable = Files.getPosixFilePermissions(staged, LinkOption.NOFOLLOW_LINKS).contains(PosixFilePermission.OWNER_EXECUTE);
    boolean localExecutable = Files.getPosixFilePermissions(local, LinkOption.NOFOLLOW_LINKS).contains(PosixFilePermission.OWNER_EXECUTE);
    return stagedExecutable == localExecutable && Files.size(staged) == Files.size(local) && Files.mismatch(staged, local) == -1;
  }

  /** Removes {@code local} and what it holds, except protected paths; whether it is gone. */
  private boolean remove(Path local, String path) throws IOException {
    Optional<BasicFileAttributes> attrs = attributes(local);
    if (attrs.isEmpty()) {
      return true;
    }
    if (attrs.get().isDirectory()) {
      boolean empty = true;
      for (String name : names(local)) {
        String childPath = child(path, name);
        if (layout.isProtected(childPath)) {
          empty = false;
        } else {
          empty &= remove(local.resolve(name), childPath);
        }
      }
      if (!empty) {
        return false;
      }
    }
    Files.delete(local);
    removed.add(path);
    return true;
  }

  private static Optional<BasicFileAttributes> attributes(Path path) throws IOException {
    try {
      return Optional.of(Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  private static TreeSet<String> names(Path directory) throws IOException {
    TreeSet<String> names = new TreeSet<>();
    try (DirectoryStream<Path> children = Files.newDirectoryStream(directory)) {
      for (Path child : children) {
        names.add(child.getFileName().toString());
      }
    }
    return names;
  }

  private static String child(String relative, String name) {
    return relative.isEmpty() ? name : relative + "/" + name;
  }
}
