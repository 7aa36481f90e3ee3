package dev.capability.capability.runtime.internal.exec;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.kernel.api.CapabilityException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;

/**
 * The operator's AppCDS archive that the child JVM maps. The JVM trusts an archive's contents
 * (classes in it are not verified again), so it must be the operator's: a regular file, not a
 * symlink, owned by root or this JVM's user, that neither it nor its directory can be written by
 * anyone else, and not under a path the run grants for writing, where a capability could replace
 * it for the runs after it.
 */
final class ClassDataArchive {
  private ClassDataArchive() {}

  static Path requireAbsolute(Path archive) {
    if (!archive.isAbsolute()) {
      throw refused(archive, "is not an absolute path");
    }
    // The JVM reads a colon in -XX:SharedArchiveFile as a separator between two archives.
    if (archive.toString().contains(":")) {
      throw refused(archive, "contains ':', which the JVM would read as two archives");
    }
    return archive.normalize();
  }

  /** Refuses the archive unless only the operator controls it and the run cannot write it. */
  static void check(Path archive, List<Path> writable) {
    Path real;
    try {
      PosixFileAttributes file = Files.readAttributes(archive, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!file.isRegularFile()) {
        throw refused(archive, "is not a regular file (a symlink is refused)");
      }
      requireOperatorOnly(archive, file, "file");
      Path directory = archive.getParent().toRealPath();
      requireOperatorOnly(archive, Files.readAttributes(directory, PosixFileAttributes.class), "directory " + directory);
      real = directory.resolve(archive.getFileName());
    } catch (IOException e) {
      throw refused(archive, "cannot be read: " + e.getMessage());
    }
    for (Path granted : writable) {
      if (archive.startsWith(granted) || real.startsWith(realOrSelf(granted))) {
        throw refused(archive, "lies under the granted writable path " + granted + ", where the capability could replace it");
      }
    }
  }

  /** The child JVM's options: map the archive, and send the JVM's warnings to the log, not the response. */
  static List<String> jvmOptions(Path archive) {
    return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:disable", "-Xlog:all=warning:stderr");
  }

  private static void requireOperatorOnly(Path archive, PosixFileAttributes attributes, String what) {
    String owner = attributes.owner().getName();
    if (!owner.equals("root") && !owner.equals(System.getProperty("user.name"))) {
      throw refused(archive, "has its " + what + " owned by " + owner + ", not by root or this JVM's user");
    }
    if (attributes.permissions().contains(PosixFilePermission.GROUP_WRITE)
        || attributes.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
      throw refused(archive, "has its " + what + " writable by group or others");
    }
  }

  private static Path realOrSelf(Path path) {
    try {
      return path.toRealPath();
    } catch (IOException e) {
      return path;
    }
  }

  private static CapabilityException refused(Path archive, String why) {
    return new CapabilityException(CapabilityCodes.ISOLATION_UNAVAILABLE, "class-data archive " + archive + " " + why);
  }
}
