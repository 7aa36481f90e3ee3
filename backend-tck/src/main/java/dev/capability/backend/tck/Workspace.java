package dev.capability.backend.tck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * One test's files on the host, laid out so that only isolation, never file permissions, stops a
 * command from writing where it should not:
 *
 * <pre>
 * root/                 0755, in java.io.tmpdir; the repository's parent
 *   repository/         0755, the spec's repository and default working directory
 *     bin/              0755, the test's scripts (0755); only this JVM's user can change them
 *     shared/           0777, attack targets inside the repository (0666 files)
 *     writable/         0777, the writable root the filesystem tests grant
 *   outside/            0777, a host directory outside the repository (0666 files)
 * </pre>
 *
 * Directories are open to every user because a backend may run commands as another uid (the bwrap
 * backend drops root to nobody); a write that fails only for lack of permission would prove nothing
 * about a read-only mount.
 */
final class Workspace implements AutoCloseable {
  private static final Set<PosixFilePermission> PRIVATE_DIRECTORY =
      PosixFilePermissions.fromString("rwxr-xr-x");
  private static final Set<PosixFilePermission> OPEN_DIRECTORY =
      PosixFilePermissions.fromString("rwxrwxrwx");
  private static final Set<PosixFilePermission> EXECUTABLE =
      PosixFilePermissions.fromString("rwxr-xr-x");
  private static final Set<PosixFilePermission> OPEN_FILE =
      PosixFilePermissions.fromString("rw-rw-rw-");

  private final Path root;
  private final Path repository;

  private Workspace(Path root) {
    this.root = root;
    this.repository = root.resolve("repository");
  }

  /** Creates a fresh workspace under {@code java.io.tmpdir}. */
  static Workspace create() {
    try {
      Path root = Files.createTempDirectory("ck-tck-").toRealPath();
      Workspace workspace = new Workspace(root);
      Files.setPosixFilePermissions(root, PRIVATE_DIRECTORY);
      workspace.directory(workspace.repository, PRIVATE_DIRECTORY);
      workspace.directory(workspace.bin(), PRIVATE_DIRECTORY);
      workspace.directory(workspace.shared(), OPEN_DIRECTORY);
      workspace.directory(workspace.writable(), OPEN_DIRECTORY);
      workspace.directory(workspace.outside(), OPEN_DIRECTORY);
      return workspace;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a workspace in java.io.tmpdir", e);
    }
  }

  Path root() {
    return root;
  }

  Path repository() {
    return repository;
  }

  Path bin() {
    return repository.resolve("bin");
  }

  Path shared() {
    return repository.resolve("shared");
  }

  Path writable() {
    return repository.resolve("writable");
  }

  Path outside() {
    return root.resolve("outside");
  }

  /** Writes an executable {@code /bin/sh} script into {@code bin/}. */
  Path script(String name, String body) {
    Path file = bin().resolve(name);
    write(file, "#!/bin/sh\n" + body + "\n", EXECUTABLE);
    return file;
  }

  /** Writes a file that every user may write, so only isolation can protect it. */
  Path openFile(Path file, String content) {
    write(file, content, OPEN_FILE);
    return file;
  }

  /** Writes a file readable by every user. */
  Path readableFile(Path file, byte[] content) {
    try {
      Files.write(file, content);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /** Creates a directory that every user can enter but only this JVM's user can change. */
  Path directory(Path directory) {
    return directory(directory, PRIVATE_DIRECTORY);
  }

  private Path directory(Path directory, Set<PosixFilePermission> permissions) {
    try {
      Files.createDirectory(directory);
      // Set after creation: the umask must not narrow them.
      Files.setPosixFilePermissions(directory, permissions);
      return directory;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + directory, e);
    }
  }

  private static void write(Path file, String content, Set<PosixFilePermission> permissions) {
    try {
      Files.writeString(file, content, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(file, permissions);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /**
   * Deletes the workspace and whatever commands left in it; symbolic links are not followed. A
   * directory a command made unreadable or unwritable is opened up first, when this JVM owns it.
   */
  @Override
  public void close() {
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(
                Path directory, BasicFileAttributes attributes) {
              try {
                Files.setPosixFilePermissions(
                    directory, PosixFilePermissions.fromString("rwx------"));
              } catch (IOException e) {
                // Not ours; deleting its entries may still work, and fails loudly if not.
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
                throws IOException {
              Files.delete(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path directory, IOException failure)
                throws IOException {
              if (failure != null) {
                throw failure;
              }
              Files.delete(directory);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete workspace " + root, e);
    }
  }
}
