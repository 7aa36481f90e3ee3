package dev.capability.ledger.internal;

import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Where the playbook lives, {@code <home>/.capability/playbook.db}, and the checks that keep it
 * private: every check reads attributes without following a symbolic link, and a location another
 * user could write, or a link, is refused rather than repaired.
 */
public final class PlaybookFiles {
  /** The files SQLite may keep beside the database. */
  private static final List<String> JOURNAL_SUFFIXES = List.of("-journal", "-wal", "-shm");
  private static final Set<PosixFilePermission> GROUP_OR_OTHERS_WRITE = Set.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

  private final Path directory;
  private final Path database;

  private PlaybookFiles(Path directory) {
    this.directory = directory;
    this.database = directory.resolve("playbook.db");
  }

  /** The playbook's files under the home directory {@code home}, which must be an absolute path the JDBC URL reads as it is. */
  public static PlaybookFiles under(Path home) {
    String text = home.toString();
    if (!home.isAbsolute() || text.contains("?") || text.contains("#")) {
      throw new LedgerException(LedgerCodes.PLAYBOOK_LOCATION_UNSAFE,
          "the playbook's home directory must be an absolute path free of '?' and '#': " + home);
    }
    return new PlaybookFiles(home.normalize().resolve(".capability"));
  }

  public Path directory() {
    return directory;
  }

  public Path database() {
    return database;
  }

  /** The database and the journals SQLite may keep beside it. */
  public List<Path> databaseAndJournals() {
    return Stream.concat(Stream.of(database), JOURNAL_SUFFIXES.stream().map(suffix -> database.resolveSibling(database.getFileName() + suffix)))
        .toList();
  }

  /**
   * Whether the playbook exists, that is, the operator enabled it. Nothing is created. When no
   * {@code playbook.db} is there, the answer is no, whatever the directory is (it may serve other
   * tools); when one is, the directory and the files are checked first.
   */
  public boolean exists() {
    if (attributes(directory).isEmpty() || attributes(database).isEmpty()) {
      return false;
    }
    requirePrivateDirectory();
    requirePrivateFiles();
    return true;
  }

  /** Creates the directory (mode 0700) and the empty database (mode 0600) where missing, then checks both. */
  public void create() {
    try {
      if (attributes(directory).isEmpty()) {
        try {
          Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (FileAlreadyExistsException e) {
          // Created meanwhile: checked below like any existing directory.
        }
      }
      requirePrivateDirectory();
      if (attributes(database).isEmpty()) {
        try {
          // O_CREAT|O_EXCL: a link put in its place meanwhile fails here rather than being followed.
          Files.createFile(database, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
          SafeFiles.forceDirectory(directory);
        } catch (FileAlreadyExistsException e) {
          // Created meanwhile: checked below like any existing file.
        }
      }
    } catch (NoSuchFileException e) {
      throw new LedgerException(LedgerCodes.PLAYBOOK_IO_ERROR, "cannot create the playbook: " + e.getFile() + " does not exist", e);
    } catch (IOException e) {
      throw new LedgerException(LedgerCodes.PLAYBOOK_IO_ERROR, "cannot create the playbook in " + directory + ": " + e, e);
    }
    requirePrivateFiles();
  }

  /** Deletes the database and its journals; true when the database was there. */
  public boolean delete() {
    if (attributes(directory).isEmpty()) {
      return false;
    }
    requirePrivateDirectory();
    try {
      boolean existed = false;
      for (Path file : databaseAndJournals()) {
        // Deleting a link removes the link, never what it points to.
        existed |= Files.deleteIfExists(file) && file.equals(database);
      }
      SafeFiles.forceDirectory(directory);
      return existed;
    } catch (IOException e) {
      throw new LedgerException(LedgerCodes.PLAYBOOK_IO_ERROR, "cannot delete the playbook in " + directory + ": " + e, e);
    }
  }

  /** The directory is a real directory (not a link) that neither its group nor others may write. */
  public void requirePrivateDirectory() {
    PosixFileAttributes attributes = attributes(directory).orElseThrow(() -> new LedgerException(LedgerCodes.PLAYBOOK_IO_ERROR,
        "the playbook's directory " + directory + " does not exist"));
    if (attributes.isSymbolicLink()) {
      throw unsafe(directory + " is a symbolic link; the playbook never follows one");
    }
    if (!attributes.isDirectory()) {
      throw unsafe(directory + " is not a directory");
    }
    if (attributes.permissions().stream().anyMatch(GROUP_OR_OTHERS_WRITE::contains)) {
      throw unsafe(directory + " is writable by its group or by others (mode " + PosixFilePermissions.toString(attributes.permissions())
          + "); make it 0700: whoever can write it could replace the playbook");
    }
  }

  /** The database is a regular file (not a link) private to its owner, and no journal beside it is a link. */
  public void requirePrivateFiles() {
    for (Path file : databaseAndJournals()) {
      Optional<PosixFileAttributes> found = attributes(file);
      if (found.isEmpty()) {
        continue;
      }
      PosixFileAttributes attributes = found.get();
      if (attributes.isSymbolicLink()) {
        throw unsafe(file + " is a symbolic link; the playbook never follows one");
      }
      if (!attributes.isRegularFile()) {
        throw unsafe(file + " is not a regular file");
      }
      if (attributes.permissions().stream().anyMatch(p -> p != PosixFilePermission.OWNER_READ && p != PosixFilePermission.OWNER_WRITE)) {
        throw unsafe(file + " is not private to its owner (mode " + PosixFilePermissions.toString(attributes.permissions()) + "); make it 0600");
      }
    }
  }

  private static Optional<PosixFileAttributes> attributes(Path path) {
    try {
      return Optional.of(Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (UnsupportedOperationException e) {
      throw unsafe("the file system of " + path + " has no POSIX permissions, so the playbook cannot be kept private there");
    } catch (IOException e) {
      throw new LedgerException(LedgerCodes.PLAYBOOK_IO_ERROR, "cannot read the attributes of " + path + ": " + e, e);
    }
  }

  private static LedgerException unsafe(String message) {
    return new LedgerException(LedgerCodes.PLAYBOOK_LOCATION_UNSAFE, message);
  }
}
