package dev.capability.kernel.core.internal.pipeline;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.core.internal.ProcessUid;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs on one repository take turns from the snapshot to the end of the audit, in this JVM and
 * across JVMs. The audit compares the repository before and after a run and holds the run to
 * what changed; a second run writing the same repository meanwhile would have its writes (and a
 * sandbox's mount-point placeholders) counted against the first. So the kernel runs one launch
 * per repository at a time: concurrent callers wait for their turn rather than get each other's
 * violations.
 *
 * <p>Across JVMs the turn is an exclusive {@link FileLock} on a file named by the SHA-256 of the
 * repository's canonical path, in a directory of the kernel's user under the JVM's temporary
 * directory (mode 0700, never through a symlink), never in the repository, which the commands
 * may write. The operating system drops the lock when a JVM dies.
 */
final class RepositoryLock implements AutoCloseable {
  /** The turn of a repository could not be taken: its lock file could not be opened or locked. */
  static final String LOCK_FAILED = "REPOSITORY_LOCK_FAILED";

  private static final Map<Path, ReentrantLock> IN_THIS_JVM = new ConcurrentHashMap<>();

  private final ReentrantLock local;
  private final FileChannel channel;
  private final FileLock fileLock;

  private RepositoryLock(ReentrantLock local, FileChannel channel, FileLock fileLock) {
    this.local = local;
    this.channel = channel;
    this.fileLock = fileLock;
  }

  /** Waits for {@code repository}'s turn; the caller closes the lock when its run has been audited. */
  static RepositoryLock acquire(Path repository) {
    ReentrantLock local = IN_THIS_JVM.computeIfAbsent(repository, path -> new ReentrantLock());
    local.lock();
    FileChannel channel = null;
    try {
      channel = FileChannel.open(lockFile(repository),
          StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
      return new RepositoryLock(local, channel, channel.lock());
    } catch (IOException | RuntimeException e) {
      closeQuietly(channel);
      local.unlock();
      throw new CapabilityException(LOCK_FAILED, "could not take the turn of repository " + repository
          + " (runs on one repository are audited one at a time): " + e.getMessage(), e);
    }
  }

  private static Path lockFile(Path repository) throws IOException {
    int uid = ProcessUid.effective();
    Path directory = Path.of(System.getProperty("java.io.tmpdir"), "capability-repository-locks-" + uid);
    if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
      try {
        Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } catch (java.nio.file.FileAlreadyExistsException raced) {
        // Another run created it first; it is checked below like any existing one.
      }
    }
    if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)
        || !Integer.valueOf(uid).equals(Files.getAttribute(directory, "unix:uid", LinkOption.NOFOLLOW_LINKS))
        || !PosixFilePermissions.toString(Files.getPosixFilePermissions(directory, LinkOption.NOFOLLOW_LINKS)).equals("rwx------")) {
      throw new IOException(directory + " must be a directory of this user with mode 0700, not a link");
    }
    return directory.resolve(sha256(repository.toString()) + ".lock");
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  @Override
  public void close() {
    try {
      fileLock.release();
    } catch (IOException e) {
      // Closing the channel below releases the lock as well.
    } finally {
      closeQuietly(channel);
      local.unlock();
    }
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // Nothing holds the file open after this; the lock goes with the channel.
      }
    }
  }
}
