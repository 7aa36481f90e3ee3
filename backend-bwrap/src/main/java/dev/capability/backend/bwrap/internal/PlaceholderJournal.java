package dev.capability.backend.bwrap.internal;

import dev.capability.kernel.api.backend.LaunchFailedException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which mask placeholders exist in host repositories, and which runs use them, kept outside every
 * repository (in {@code bwrap.work-dir}, one directory per uid) so that a run whose JVM died by
 * SIGKILL leaves nothing behind for longer than the next run's start.
 *
 * <p>bwrap can only mount over a path that exists, and below a host bind mount an absent path's
 * mount point can only be made on the host. So each absent protected path gets an empty directory
 * (mode 0700) for as long as at least one live run masks it. Every run records the placeholders it
 * uses in a file named for its JVM (pid and start time) before any is created; a placeholder is
 * removed when no live run uses it any more, if it is still that very empty directory. A run file
 * whose JVM is gone is dropped at the next journal operation of any JVM of that uid, and with it
 * the dead run's claim. Concurrent runs share a placeholder instead of tripping over it; removing
 * a placeholder another run still mounts over would detach that run's mask, which this prevents.
 *
 * <p>All operations hold a JVM-wide lock and an exclusive lock on the journal's lock file.
 */
final class PlaceholderJournal {
  private static final Logger LOG = LoggerFactory.getLogger(PlaceholderJournal.class);
  private static final ReentrantLock IN_THIS_JVM = new ReentrantLock();
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rwx------");
  private static final String RUN_PREFIX = "run-";
  private static final String CREATED = "created";
  private static final Charset UTF = StandardCharsets.UTF_8;

  private final Path directory;

  /** A journal in {@code workDirectory}; nothing is created until it is first used. */
  PlaceholderJournal(Path workDirectory) {
    Objects.requireNonNull(workDirectory, "workDirectory");
    this.directory = workDirectory.resolve("capability-bwrap-placeholders-" + currentUid());
  }

  /**
   * Removes what runs whose JVM is gone left behind, when this uid has a journal here at all; run
   * when a backend starts, before a kernel looks at a repository, so that the kernel's audit never
   * sees a dead run's placeholder disappear during a run of its own. A failure is logged: the
   * next launch that masks a path tries again and fails that launch instead.
   */
  void recover() {
    if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try {
      locked(
          () -> {
            sweep();
            return null;
          });
    } catch (LaunchFailedException e) {
      LOG.warn("could not remove the placeholders of ended runs: {}", e.getMessage());
    }
  }

  /**
   * The placeholders live runs use now, after dropping what dead runs left: paths that exist only
   * as masks, so a plan must treat them as absent.
   */
  Set<Path> placeholders() {
    return locked(
        () -> {
          sweep();
          return new HashSet<>(readCreated().keySet());
        });
  }

  /**
   * Claims {@code paths} for one run and creates those that are absent, as empty directories.
   *
   * @throws LaunchFailedException when one of them exists and is not a placeholder
   */
  Claim claim(List<Path> paths) {
    return locked(
        () -> {
          sweep();
          Path runFile = directory.resolve(JvmStamp.name(RUN_PREFIX));
          write(runFile, encode(paths));
          Claim claim = new Claim(runFile);
          try {
            Map<Path, String> created = readCreated();
            for (Path path : paths) {
              String key = fileKey(path);
              if (key == null) {
                Files.createDirectory(path, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                created.put(path, fileKey(path));
                writeCreated(created);
              } else if (!key.equals(created.get(path))) {
                throw new LaunchFailedException(
                    "cannot mask the absent protected path "
                        + path
                        + " (it must stay absent): it appeared before the launch");
              }
            }
            return claim;
          } catch (IOException e) {
            release(runFile);
            throw new LaunchFailedException("cannot mask an absent protected path: " + e, e);
          } catch (RuntimeException e) {
            release(runFile);
            throw e;
          }
        });
  }

  /** One run's use of its placeholders; closing it removes those no other live run uses. */
  final class Claim implements AutoCloseable {
    private final Path runFile;

    private Claim(Path runFile) {
      this.runFile = runFile;
    }

    @Override
    public void close() {
      locked(
          () -> {
            release(runFile);
            return null;
          });
    }
  }

  private void release(Path runFile) {
    try {
      Files.deleteIfExists(runFile);
      sweep();
    } catch (IOException e) {
      LOG.warn("could not release the placeholders of {}: {}", runFile, e.getMessage());
    }
  }

  /** Drops dead runs' claims and removes placeholders no live run uses. */
  private void sweep() throws IOException {
    Set<Path> inUse = new HashSet<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, RUN_PREFIX + "*")) {
      for (Path runFile : entries) {
        if (JvmStamp.ownerAlive(runFile.getFileName().toString(), RUN_PREFIX)) {
          inUse.addAll(decode(Files.readString(runFile, UTF)));
        } else {
          Files.deleteIfExists(runFile);
        }
      }
    }
    Map<Path, String> created = readCreated();
    boolean changed = false;
    for (var it = created.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Path, String> entry = it.next();
      if (inUse.contains(entry.getKey())) {
        continue;
      }
      remove(entry.getKey(), entry.getValue());
      it.remove();
      changed = true;
    }
    if (changed) {
      writeCreated(created);
    }
  }

  private static void remove(Path placeholder, String key) {
    try {
      if (key.equals(fileKey(placeholder))) {
        Files.delete(placeholder);
      } else if (Files.exists(placeholder, LinkOption.NOFOLLOW_LINKS)) {
        LOG.warn("the mask placeholder {} was replaced; leaving it", placeholder);
      }
    } catch (DirectoryNotEmptyException e) {
      LOG.warn("the mask placeholder {} has been filled on the host; leaving it", placeholder);
    } catch (IOException e) {
      LOG.warn("could not remove the mask placeholder {}: {}", placeholder, e.getMessage());
    }
  }

  /** The identity of an empty directory at {@code path}, or null when nothing is there. */
  private static String fileKey(Path path) throws IOException {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
    return (attributes.isDirectory() ? "directory " : "other ") + attributes.fileKey();
  }

  private Map<Path, String> readCreated() throws IOException {
    Map<Path, String> created = new LinkedHashMap<>();
    Path file = directory.resolve(CREATED);
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return created;
    }
    for (String line : Files.readAllLines(file, UTF)) {
      int space = line.indexOf(' ');
      if (space > 0) {
        created.put(
            Path.of(new String(Base64.getDecoder().decode(line.substring(0, space)), UTF)),
            line.substring(space + 1));
      }
    }
    return created;
  }

  private void writeCreated(Map<Path, String> created) throws IOException {
    StringBuilder text = new StringBuilder();
    created.forEach(
        (path, key) ->
            text.append(Base64.getEncoder().encodeToString(path.toString().getBytes(UTF)))
                .append(' ')
                .append(key)
                .append('\n'));
    Path temporary = directory.resolve(CREATED + ".new");
    Files.deleteIfExists(temporary);
    write(temporary, text.toString());
    Files.move(temporary, directory.resolve(CREATED), StandardCopyOption.ATOMIC_MOVE);
  }

  private static String encode(List<Path> paths) {
    StringBuilder text = new StringBuilder();
    for (Path path : paths) {
      text.append(Base64.getEncoder().encodeToString(path.toString().getBytes(UTF))).append('\n');
    }
    return text.toString();
  }

  private static List<Path> decode(String text) {
    List<Path> paths = new ArrayList<>();
    for (String line : text.lines().toList()) {
      if (!line.isEmpty()) {
        paths.add(Path.of(new String(Base64.getDecoder().decode(line), UTF)));
      }
    }
    return paths;
  }

  private static void write(Path file, String text) throws IOException {
    Files.writeString(
        file,
        text,
        UTF,
        StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE,
        StandardOpenOption.SYNC,
        LinkOption.NOFOLLOW_LINKS);
  }

  private <T> T locked(IoAction<T> action) {
    IN_THIS_JVM.lock();
    try {
      ensureDirectory();
      try (FileChannel lockFile =
              FileChannel.open(
                  directory.resolve("lock"),
                  StandardOpenOption.CREATE,
                  StandardOpenOption.WRITE,
                  LinkOption.NOFOLLOW_LINKS);
          FileLock lock = lockFile.lock()) {
        T result = action.run();
        lock.release();
        return result;
      }
    } catch (IOException e) {
      throw new LaunchFailedException(
          "cannot use the placeholder journal " + directory + ": " + e, e);
    } finally {
      IN_THIS_JVM.unlock();
    }
  }

  @FunctionalInterface
  private interface IoAction<T> {
    T run() throws IOException;
  }

  /** The journal's directory, this uid's own and private, never through a symlink. */
  private void ensureDirectory() throws IOException {
    try {
      Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
      Files.setPosixFilePermissions(directory, OWNER_ONLY);
    } catch (FileAlreadyExistsException e) {
      // Checked below.
    }
    BasicFileAttributes attributes =
        Files.readAttributes(directory, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    Object owner = Files.getAttribute(directory, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    Set<PosixFilePermission> mode =
        Files.getPosixFilePermissions(directory, LinkOption.NOFOLLOW_LINKS);
    if (!attributes.isDirectory()
        || !Objects.equals(owner, currentUid())
        || !mode.equals(OWNER_ONLY)) {
      throw new IOException(
          directory + " is not a directory of mode 0700 owned by uid " + currentUid());
    }
  }

  private static int currentUid() {
    return SandboxIdentity.JvmCredentials.current().effectiveUid();
  }
}
