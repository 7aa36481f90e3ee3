package dev.capability.capability.runtime.internal.archive;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import dev.capability.capability.runtime.internal.effects.ScopeGrammar;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads a package directory into memory without following any link. Symbolic links, hard links
 * (a file with more than one name may change through the other) and special files are refused.
 */
final class DirectoryReader {
  private DirectoryReader() {}

  static PackageContents read(Path root, ArchiveLimits limits) throws IOException {
    PackageContents.Builder builder = new PackageContents.Builder(limits, true);
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            if (!dir.equals(root)) {
              builder.directory(name(root, dir) + "/");
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
            String name = name(root, file);
            String where = "entry '" + ScopeGrammar.printable(name) + "'";
            if (attrs.isSymbolicLink()) {
              throw new PackageRefusedException(CapabilityCodes.ARCHIVE_SYMLINK, where + " is a symbolic link");
            }
            if (!attrs.isRegularFile()) {
              throw new PackageRefusedException(CapabilityCodes.ARCHIVE_SPECIAL_FILE, where + " is a device, FIFO or socket");
            }
            Object links = Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
            if (links instanceof Integer count && count > 1) {
              throw new PackageRefusedException(CapabilityCodes.ARCHIVE_SYMLINK, where + " is a hard link");
            }
            if (attrs.size() > limits.maxEntryBytes()) {
              throw new PackageRefusedException(CapabilityCodes.ARCHIVE_BOMB, where + " is larger than " + limits.maxEntryBytes() + " bytes");
            }
            try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
              byte[] bytes = in.readNBytes((int) limits.maxEntryBytes() + 1);
              if (bytes.length > limits.maxEntryBytes()) {
                throw new PackageRefusedException(CapabilityCodes.ARCHIVE_BOMB, where + " grew past " + limits.maxEntryBytes() + " bytes");
              }
              builder.file(name, bytes);
            }
            return FileVisitResult.CONTINUE;
          }
        });
    return builder.build();
  }

  private static String name(Path root, Path path) {
    StringBuilder name = new StringBuilder();
    for (Path part : root.relativize(path)) {
      if (name.length() > 0) {
        name.append('/');
      }
      name.append(part.toString());
    }
    return name.toString();
  }
}
