package dev.capability.backend.bwrap.internal;

import dev.capability.kernel.api.backend.LaunchFailedException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The private files of one run, in a fresh directory of mode 0711 (the sandbox's uid may pass
 * through to what is bound, nobody may list or change it): the executable copy, the generated
 * {@code /etc/passwd} and {@code /etc/group}, the mask directory, bwrap's argument file and the
 * command's input. Removed when the run ends; the placeholders of masked protected paths are
 * released to their {@link PlaceholderJournal}, which removes those no other live run uses.
 */
final class RunDirectory implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RunDirectory.class);
  private static final Set<PosixFilePermission> PRIVATE_DIRECTORY =
      PosixFilePermissions.fromString("rwx--x--x");
  private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
  private static final Set<PosixFilePermission> READ_ONLY =
      PosixFilePermissions.fromString("r--r--r--");
  private static final Set<PosixFilePermission> READ_ONLY_DIRECTORY =
      PosixFilePermissions.fromString("r-xr-xr-x");

  private final Path directory;
  private PlaceholderJournal.Claim placeholders;

  private RunDirectory(Path directory) {
    this.directory = directory;
  }

  /** Creates a fresh run directory in {@code base}. */
  static RunDirectory create(Path base) {
    try {
      Path directory =
          Files.createTempDirectory(
              base, "run-", PosixFilePermissions.asFileAttribute(PRIVATE_DIRECTORY));
      // createTempDirectory's mode is filtered by the umask; set it exactly.
      Files.setPosixFilePermissions(directory, PRIVATE_DIRECTORY);
      return new RunDirectory(directory);
    } catch (IOException e) {
      throw new LaunchFailedException(
          "cannot create a private run directory in " + base + ": " + e, e);
    }
  }

  /** Creates a private directory (mode 0711) for a backend's run directories. */
  static Path createBase(Path parent) throws IOException {
    Path base =
        Files.createTempDirectory(
            parent, "capability-bwrap-", PosixFilePermissions.asFileAttribute(PRIVATE_DIRECTORY));
    Files.setPosixFilePermissions(base, PRIVATE_DIRECTORY);
    // A backend nobody closed leaves at most this empty directory behind.
    base.toFile().deleteOnExit();
    return base;
  }

  Path path() {
    return directory;
  }

  SandboxLayout.RunFiles files() {
    return new SandboxLayout.RunFiles(
        directory.resolve("exe"),
        directory.resolve("passwd"),
        directory.resolve("group"),
        directory.resolve("mask"));
  }

  /** Writes the generated account files and the empty mask directory. */
  void writeSystemFiles(SandboxIdentity identity) {
    String user = identity.uid() == BwrapSettings.NOBODY ? "nobody" : "sandbox";
    String group = identity.gid() == BwrapSettings.NOBODY ? "nogroup" : "sandbox";
    StringBuilder passwd = new StringBuilder();
    passwd.append(user).append(":x:").append(identity.uid()).append(':').append(identity.gid());
    passwd.append(':').append(user).append(":/tmp:/usr/sbin/nologin\n");
    if (identity.uid() != BwrapSettings.NOBODY) {
      passwd.append("nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n");
    }
    StringBuilder groups = new StringBuilder();
    groups.append(group).append(":x:").append(identity.gid()).append(":\n");
    if (identity.gid() != BwrapSettings.NOBODY) {
      groups.append("nogroup:x:65534:\n");
    }
    SandboxLayout.RunFiles files = files();
    write(files.passwd(), passwd.toString().getBytes(StandardCharsets.UTF_8), READ_ONLY);
    write(files.group(), groups.toString().getBytes(StandardCharsets.UTF_8), READ_ONLY);
    try {
      Files.createDirectory(files.mask());
      Files.setPosixFilePermissions(files.mask(), READ_ONLY_DIRECTORY);
    } catch (IOException e) {
      throw new LaunchFailedException("cannot create the mask " + files.mask() + ": " + e, e);
    }
  }

  /** Writes a file only this JVM's user can read. */
  Path writePrivate(String name, byte[] content) {
    Path file = directory.resolve(name);
    write(file, content, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  /**
   * Claims the mount points of this run's masks: an empty directory at each absent protected path,
   * shared with concurrent runs that mask it too, and released when this run directory closes.
   */
  void createPlaceholders(SandboxLayout.Placeholders planned) {
    if (placeholders != null) {
      throw new IllegalStateException("placeholders already claimed");
    }
    if (!planned.paths().isEmpty()) {
      placeholders = planned.journal().claim(planned.paths());
    }
  }

  @Override
  public void close() {
    if (placeholders != null) {
      placeholders.close();
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
      for (Path entry : entries) {
        Files.deleteIfExists(entry);
      }
      Files.deleteIfExists(directory);
    } catch (IOException e) {
      LOG.warn("could not remove the run directory {}: {}", directory, e.getMessage());
    }
  }

  private static void write(Path file, byte[] content, Set<PosixFilePermission> mode) {
    try {
      Files.createFile(file, OWNER_ONLY);
      Files.write(file, content, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
      Files.setPosixFilePermissions(file, mode);
    } catch (IOException e) {
      throw new LaunchFailedException("cannot write the private file " + file + ": " + e, e);
    }
  }
}
