package dev.capability.kernel.core.internal.audit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One path of a {@link RepositorySnapshot} as {@code lstat} saw it.
 *
 * @param type the entry type; symbolic links are never followed
 * @param mode the POSIX permission bits, including set-id and sticky bits ({@code 07777})
 * @param size the size in bytes as reported by {@code lstat}
 * @param device the device id
 * @param inode the inode number
 * @param modifiedNanos modification time, nanoseconds since the epoch
 * @param changedNanos status change time ({@code ctime}), nanoseconds since the epoch; users cannot
 *     set it, so a rewrite that restores the modification time still changes it
 * @param linkTarget the target of a symbolic link, as stored in the link; empty for other types
 * @param contentHash hex SHA-256 of the content, present only where stat data cannot decide
 *     whether the content changed (see {@link RepositorySnapshot})
 */
public record PathState(
    EntryType type,
    int mode,
    long size,
    long device,
    long inode,
    long modifiedNanos,
    long changedNanos,
    Optional<String> linkTarget,
    Optional<String> contentHash) {

  private static final String ATTRIBUTES = "unix:mode,dev,ino,size,lastModifiedTime,ctime";

  public PathState {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(linkTarget, "linkTarget");
    Objects.requireNonNull(contentHash, "contentHash");
    if ((mode & ~07777) != 0) {
      throw new IllegalArgumentException("mode has bits outside 07777: " + Integer.toOctalString(mode));
    }
    if (linkTarget.isPresent() != (type == EntryType.SYMLINK)) {
      throw new IllegalArgumentException("a link target belongs to symbolic links only, not to " + type);
    }
  }

  /** Stat data of {@code path} itself, without following a final symbolic link. */
  static PathState lstat(Path path) throws IOException {
    Map<String, Object> a = Files.readAttributes(path, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
    int stMode = (Integer) a.get("mode");
    EntryType type = EntryType.ofMode(stMode);
    Optional<String> target = Optional.empty();
    if (type == EntryType.SYMLINK) {
      String link = Files.readSymbolicLink(path).toString();
      if (link.indexOf('\uFFFD') >= 0) {
        throw undecodableTarget(path);
      }
      target = Optional.of(link);
    }
    return new PathState(
        type,
        stMode & 07777,
        ((Number) a.get("size")).longValue(),
        ((Number) a.get("dev")).longValue(),
        ((Number) a.get("ino")).longValue(),
        nanos((FileTime) a.get("lastModifiedTime")),
        nanos((FileTime) a.get("ctime")),
        target,
        Optional.empty());
  }

  PathState withContentHash(String sha256) {
    return new PathState(type, mode, size, device, inode, modifiedNanos, changedNanos, linkTarget, Optional.of(sha256));
  }

  /** The later of the modification and the status change time. */
  long lastTouchedNanos() {
    return Math.max(modifiedNanos, changedNanos);
  }

  /**
   * Nanoseconds since the epoch, saturated where they do not fit a {@code long} (after the year
   * 2262), as {@link FileTime#to} saturates the times the JDK reports.
   */
  static long nanos(long seconds, int nanos) {
    try {
      return Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), nanos);
    } catch (ArithmeticException e) {
      return seconds < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  static AuditException undecodableTarget(Object link) {
    return new AuditException(
        AuditException.SNAPSHOT_FAILED,
        "the target of the symbolic link " + link + " is not valid in the JVM's file name encoding");
  }

  private static long nanos(FileTime time) {
    return time.to(TimeUnit.NANOSECONDS);
  }
}
