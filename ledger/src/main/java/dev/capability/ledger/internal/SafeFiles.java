package dev.capability.ledger.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;

/** File operations that either happen whole and durably or not at all. */
public final class SafeFiles {
  private SafeFiles() {}

  /**
   * Publishes {@code bytes} at {@code target}, which must not exist: written to a temporary file
   * beside it, forced to disk, then hard-linked into place, so no reader ever sees a partial file
   * and an existing file is never replaced.
   *
   * @throws FileAlreadyExistsException if {@code target} exists (perhaps created meanwhile by another process)
   */
  public static void publishNew(Path target, byte[] bytes, boolean ownerOnly) throws IOException {
    if (Files.exists(target)) {
      throw new FileAlreadyExistsException(target.toString());
    }
    Path temporary = target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    try {
      try (FileChannel channel = FileChannel.open(temporary, java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
          permissions(ownerOnly ? "rw-------" : "rw-r--r--"))) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
      Files.createLink(target, temporary);
    } finally {
      Files.deleteIfExists(temporary);
    }
    forceDirectory(target.getParent());
  }

  /** Creates {@code file} empty with mode 0600 when it does not exist yet; true when this call created it. */
  public static boolean createPrivateFile(Path file) throws IOException {
    try {
      Files.createFile(file, permissions("rw-------"));
      forceDirectory(file.getParent());
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    }
  }

  /** Creates {@code dir} with mode 0700 when it does not exist. */
  public static void createPrivateDirectory(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      try {
        Files.createDirectory(dir, permissions("rwx------"));
        forceDirectory(dir.getParent());
      } catch (FileAlreadyExistsException e) {
        if (!Files.isDirectory(dir)) {
          throw e;
        }
      }
    }
  }

  /** Forces a directory's entries to disk, so that files created in it survive a power loss. */
  public static void forceDirectory(Path dir) throws IOException {
    if (dir == null) {
      return;
    }
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /** Forces {@code file} to disk when it exists. */
  public static void forceIfExists(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (java.nio.file.NoSuchFileException e) {
      // Nothing to force: SQLite removed the file after checkpointing it into the database.
    }
  }

  private static FileAttribute<?>[] permissions(String mode) {
    if (!java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      return new FileAttribute<?>[0];
    }
    return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode))};
  }
}
