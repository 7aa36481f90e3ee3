package dev.capability.workspace.internal;

import dev.capability.workspace.WorkspaceCodes;
import dev.capability.workspace.WorkspaceOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The archive of writable roots a backend returned: read entry by entry under a hostile package's
 * checks into a private staging directory outside the repository, and applied to the repository
 * only when the whole archive passed.
 */
public final class ReturnedArchive {
  private enum Kind { IMPLICIT_DIRECTORY, DIRECTORY, FILE, SYMLINK }

  private final WorkspaceLayout layout;
  private final TarReader reader;
  private final Path staging;
  private final Map<String, Kind> staged = new HashMap<>();

  private ReturnedArchive(WorkspaceLayout layout, TarReader reader, Path staging) {
    this.layout = layout;
    this.reader = reader;
    this.staging = staging;
  }

  /**
   * Reads {@code tar} to its end (or to the first refusal), and applies it when it passed.
   *
   * @return the outcome, its input fields zero
   * @throws IOException when the stream fails (nothing is applied then)
   */
  public static WorkspaceOutcome receive(WorkspaceLayout layout, InputStream tar) throws IOException {
    TarReader reader = new TarReader(tar, layout.limits().maxReturnBytes(), layout.limits().maxEntries());
    Path staging;
    try {
      staging = createStaging(layout);
    } catch (ArchiveRefusal refusal) {
      return refused(reader, refusal);
    }
    try {
      try {
        new ReturnedArchive(layout, reader, staging).stage();
      } catch (ArchiveRefusal refusal) {
        return refused(reader, refusal);
      }
      RootSync sync = new RootSync(layout);
      try {
        sync.apply(staging);
      } catch (ArchiveRefusal refusal) {
        return new WorkspaceOutcome(0, 0, Optional.empty(), reader.bytes(), reader.entries(), WorkspaceOutcome.Status.REFUSED,
            Optional.of(refusal.code()), refusal.getMessage(), sync.created(), sync.changed(), sync.removed());
      }
      String message = "applied " + reader.entries() + " entries to " + layout.roots().size() + " writable root(s): "
          + sync.created().size() + " created, " + sync.changed().size() + " changed, " + sync.removed().size() + " removed";
      return new WorkspaceOutcome(0, 0, Optional.empty(), reader.bytes(), reader.entries(), WorkspaceOutcome.Status.APPLIED,
          Optional.empty(), message, sync.created(), sync.changed(), sync.removed());
    } finally {
      deleteTree(staging);
    }
  }

  private static WorkspaceOutcome refused(TarReader reader, ArchiveRefusal refusal) {
    return new WorkspaceOutcome(0, 0, Optional.empty(), reader.bytes(), reader.entries(), WorkspaceOutcome.Status.REFUSED,
        Optional.of(refusal.code()), "the returned archive was refused, nothing of it was applied: " + refusal.getMessage(),
        List.of(), List.of(), List.of());
  }

  /** A fresh directory only this user can enter, outside the repository. */
  private static Path createStaging(WorkspaceLayout layout) {
    try {
      Path staging = Files.createTempDirectory("capability-workspace-",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))).toRealPath();
      if (staging.startsWith(layout.repository())) {
        deleteTree(staging);
        throw new ArchiveRefusal(WorkspaceCodes.RETURN_APPLY_FAILED,
            "the staging directory " + staging + " would lie inside the repository; set java.io.tmpdir elsewhere");
      }
      return staging;
    } catch (IOException e) {
      throw new ArchiveRefusal(WorkspaceCodes.RETURN_APPLY_FAILED, "no staging directory could be created: " + e.getMessage());
    }
  }

  private void stage() throws IOException {
    for (String root : layout.roots()) {
      ensureDirectory(root);
    }
    int maxName = layout.limits().maxNameBytes();
    for (TarEntry entry = reader.next(); entry != null; entry = reader.next()) {
      String path = EntryNames.normalized(entry.name(), maxName);
      Optional<String> root = layout.rootOf(path);
      if (root.isEmpty()) {
        boolean onTheWay = layout.roots().stream().anyMatch(r -> path.isEmpty() || r.startsWith(path + "/"));
        if (entry.type() == Tar.DIRECTORY && onTheWay) {
          continue;
        }
        throw new ArchiveRefusal(WorkspaceCodes.RETURN_OUTSIDE_ROOTS,
            "the entry " + EntryNames.printable(entry.name()) + " lies outside the writable roots " + layout.roots());
      }
      if (path.equals(root.get()) && entry.type() != Tar.DIRECTORY) {
        throw new ArchiveRefusal(WorkspaceCodes.RETURN_OUTSIDE_ROOTS,
            "the entry " + EntryNames.printable(entry.name()) + " would replace the writable root '" + root.get() + "' by a file or link");
      }
      if (layout.isProtected(path) || (entry.type() != Tar.DIRECTORY && layout.holdsProtected(path))) {
        throw new ArchiveRefusal(WorkspaceCodes.RETURN_PROTECTED_PATH,
            "the entry " + EntryNames.printable(entry.name()) + " would write a protected path or git directory");
      }
      Kind existing = staged.get(path);
      if (existing != null && !(existing == Kind.IMPLICIT_DIRECTORY && entry.type() == Tar.DIRECTORY)) {
        throw new ArchiveRefusal(WorkspaceCodes.RETURN_NAME_CONFLICT,
            "the entry " + EntryNames.printable(entry.name()) + " names '" + path + "' a second time");
      }
      ensureParents(path, root.get(), entry.name());
      Path target = path.isEmpty() ? staging : staging.resolve(path);
      switch (entry.type()) {
        case Tar.DIRECTORY -> {
          if (existing == null && !path.isEmpty()) {
            Files.createDirectory(target);
          }
          staged.put(path, Kind.DIRECTORY);
        }
        case Tar.SYMLINK -> {
          requireInside(path, root.get(), entry);
          Files.createSymbolicLink(target, Path.of(entry.linkName()));
          staged.put(path, Kind.SYMLINK);
        }
        default -> {
          writeFile(target, entry);
          staged.put(path, Kind.FILE);
        }
      }
    }
  }

  private void ensureParents(String path, String root, String rawName) throws IOException {
    int from = root.isEmpty() ? 0 : root.length() + 1;
    for (int slash = path.indexOf('/', from); slash >= 0; slash = path.indexOf('/', slash + 1)) {
      String parent = path.substring(0, slash);
      Kind kind = staged.get(parent);
      if (kind == Kind.FILE || kind == Kind.SYMLINK) {
        throw new ArchiveRefusal(WorkspaceCodes.RETURN_NAME_CONFLICT,
            "the entry " + EntryNames.printable(rawName) + " lies below '" + parent + "', which the archive made a "
                + (kind == Kind.FILE ? "file" : "symbolic link"));
      }
      if (kind == null) {
        Files.createDirectory(staging.resolve(parent));
        staged.put(parent, Kind.IMPLICIT_DIRECTORY);
      }
    }
  }

  private void ensureDirectory(String root) throws IOException {
    if (!root.isEmpty()) {
      Files.createDirectories(staging.resolve(root));
      staged.put(root, Kind.IMPLICIT_DIRECTORY);
    }
  }

  /**
   * A link's target must be relative and stay inside the link's root lexically: its {@code ..}
   * segments come first (a {@code ..} after a name would climb out of whatever that name links
   * to) and climb no higher than the root.
   */
  private void requireInside(String path, String root, TarEntry entry) {
    String target = entry.linkName();
    String name = EntryNames.printable(entry.name());
    if (target.isEmpty() || target.indexOf('\0') >= 0) {
      throw new ArchiveRefusal(WorkspaceCodes.RETURN_HOSTILE_NAME, "the symbolic link " + name + " has an empty target or one holding NUL");
    }
    if (target.getBytes(StandardCharsets.UTF_8).length > layout.limits().maxNameBytes()) {
      throw new ArchiveRefusal(WorkspaceCodes.RETURN_NAME_TOO_LONG,
          "the symbolic link " + name + " has a target longer than " + layout.limits().maxNameBytes() + " bytes");
    }
    if (target.startsWith("/")) {
      throw new ArchiveRefusal(WorkspaceCodes.RETURN_LINK_OUT, "the symbolic link " + name + " has the absolute target "
          + EntryNames.printable(target));
    }
    int depth = segments(path) - segments(root) - 1;
    int up = 0;
    boolean named = false;
    for (String segment : target.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".")) {
        continue;
      }
      if (segment.equals("..")) {
        if (named || ++up > depth) {
          throw new ArchiveRefusal(WorkspaceCodes.RETURN_LINK_OUT, "the symbolic link " + name + " -> " + EntryNames.printable(target)
              + (named ? " climbs with '..' after a name, which may itself be a link" : " leaves its writable root '" + root + "'"));
        }
      } else {
        named = true;
      }
    }
  }

  private static int segments(String path) {
    return path.isEmpty() ? 0 : path.split("/", -1).length;
  }

  private void writeFile(Path target, TarEntry entry) throws IOException {
    byte[] buffer = new byte[64 * 1024];
    try (OutputStream out = Files.newOutputStream(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
      for (int read = reader.readContent(buffer); read >= 0; read = reader.readContent(buffer)) {
        out.write(buffer, 0, read);
      }
    }
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString((entry.mode() & 0100) != 0 ? "rwxr-xr-x" : "rw-r--r--"));
    Files.setLastModifiedTime(target, FileTime.from(Instant.ofEpochSecond(entry.mtime())));
  }

  /** Deletes a tree without following a symbolic link; a staging directory that cannot be deleted is left behind. */
  static void deleteTree(Path root) {
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Files.delete(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
          Files.delete(dir);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      // The staging directory is private (0700) and holds only a refused or applied copy; a
      // leftover costs disk space, not safety, and must not hide the outcome.
    }
  }
}
