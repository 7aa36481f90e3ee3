package dev.capability.workspace.internal;

import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.ShippedWorkspace.Owner;
import dev.capability.workspace.FileFingerprint;
import dev.capability.workspace.WorkspaceCodes;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The repository written as the input archive. A first walk records every entry without following
 * a symbolic link and sums the archive's size, so that a repository over the limit, or holding a
 * device, fifo or socket, fails before a byte is written; the second pass writes each entry and
 * fails when a file is no longer what the walk (and, when given, the run's snapshot) saw.
 */
public final class InputArchive {
  /**
   * The host's permission bits, less write for group and others and the set-uid, set-gid and
   * sticky bits: a file only its owner may read on the host stays so in the sandbox, whose user
   * is not that owner.
   */
  private static final int SHIPPED_PERMISSIONS = 0755;
  private static final String ATTRIBUTES = "unix:mode,ino,size,lastModifiedTime,ctime";
  private static final int TYPE_MASK = 0170000;
  private static final int TYPE_FILE = 0100000;
  private static final int TYPE_DIRECTORY = 0040000;
  private static final int TYPE_SYMLINK = 0120000;

  /** What was written. */
  public record Written(long bytes, long entries, String sha256) {}

  private record Entry(String path, Path file, Stat stat, String linkTarget) {}

  private record Stat(int mode, long inode, long size, long modifiedNanos, long changedNanos) {
    int type() {
      return mode & TYPE_MASK;
    }

    long mtimeSeconds() {
      return Math.floorDiv(modifiedNanos, 1_000_000_000L);
    }

    boolean sameFile(Stat other) {
      return inode == other.inode && size == other.size && modifiedNanos == other.modifiedNanos && changedNanos == other.changedNanos;
    }
  }

  private InputArchive() {}

  /**
   * Writes the repository of {@code layout} to {@code out}.
   *
   * @throws LaunchFailedException with a {@code WORKSPACE_INPUT_} code
   * @throws IOException when {@code out} fails
   */
  public static Written write(
      WorkspaceLayout layout, Optional<Map<String, FileFingerprint>> expected, OutputStream out, Owner readOnly, Owner writable)
      throws IOException {
    List<Entry> entries = new ArrayList<>();
    walk(layout, layout.repository(), "", entries);
    long total = TarWriter.endBytes();
    for (Entry entry : entries) {
      total += TarWriter.entryBytes(name(entry), entry.linkTarget(), sizeOf(entry), owner(layout, entry.path(), readOnly, writable),
          entry.stat().mtimeSeconds());
    }
    if (total > layout.limits().maxInputBytes()) {
      throw LaunchFailedException.withCode(WorkspaceCodes.INPUT_TOO_LARGE, "the repository " + layout.repository() + " makes an archive of "
          + total + " bytes, more than the shipped workspace's limit of " + layout.limits().maxInputBytes());
    }
    TarWriter writer = new TarWriter(out);
    for (Entry entry : entries) {
      Owner owner = owner(layout, entry.path(), readOnly, writable);
      long mtime = entry.stat().mtimeSeconds();
      switch (entry.stat().type()) {
        case TYPE_DIRECTORY -> writer.directory(name(entry), entry.stat().mode() & SHIPPED_PERMISSIONS, mtime, owner);
        case TYPE_SYMLINK -> writer.symlink(name(entry), entry.linkTarget(), mtime, owner);
        default -> writeFile(writer, entry, expected, owner);
      }
    }
    writer.finish();
    return new Written(writer.bytes(), writer.entries(), writer.sha256());
  }

  private static String name(Entry entry) {
    if (entry.path().isEmpty()) {
      return "./";
    }
    return entry.path();
  }

  private static long sizeOf(Entry entry) {
    return entry.stat().type() == TYPE_FILE ? entry.stat().size() : 0;
  }

  /** Protected paths stay read-only inside a writable root, as a local run mounts them. */
  private static Owner owner(WorkspaceLayout layout, String path, Owner readOnly, Owner writable) {
    return layout.isWritable(path) ? writable : readOnly;
  }

  private static void walk(WorkspaceLayout layout, Path directory, String relative, List<Entry> entries) {
    entries.add(new Entry(relative, directory, stat(directory, relative), ""));
    TreeSet<String> names = new TreeSet<>();
    try (DirectoryStream<Path> children = Files.newDirectoryStream(directory)) {
      for (Path child : children) {
        names.add(child.getFileName().toString());
      }
    } catch (IOException e) {
      throw unreadable(relative.isEmpty() ? "." : relative, e);
    }
    for (String name : names) {
      String path = relative.isEmpty() ? name : relative + "/" + name;
      if (layout.isExcluded(path)) {
        continue;
      }
      if (name.indexOf('\uFFFD') >= 0) {
        throw LaunchFailedException.withCode(WorkspaceCodes.INPUT_UNREADABLE,
            "the name of " + path + " is not valid in the JVM's file name encoding, so it cannot be shipped faithfully");
      }
      Path child = directory.resolve(name);
      Stat stat = stat(child, path);
      switch (stat.type()) {
        case TYPE_DIRECTORY -> walk(layout, child, path, entries);
        case TYPE_FILE -> entries.add(new Entry(path, child, stat, ""));
        case TYPE_SYMLINK -> entries.add(new Entry(path, child, stat, linkTarget(child, path)));
        default -> throw LaunchFailedException.withCode(WorkspaceCodes.INPUT_SPECIAL_FILE,
            "the repository holds " + path + ", which is a device, fifo or socket: only regular files, directories and symbolic links are shipped");
      }
    }
  }

  private static String linkTarget(Path link, String path) {
    try {
      String target = Files.readSymbolicLink(link).toString();
      if (target.indexOf('\uFFFD') >= 0) {
        throw LaunchFailedException.withCode(WorkspaceCodes.INPUT_UNREADABLE,
            "the target of the symbolic link " + path + " is not valid in the JVM's file name encoding");
      }
      return target;
    } catch (IOException e) {
      throw unreadable(path, e);
    }
  }

  private static Stat stat(Path file, String path) {
    try {
      Map<String, Object> a = Files.readAttributes(file, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
      return new Stat(
          (Integer) a.get("mode"),
          ((Number) a.get("ino")).longValue(),
          ((Number) a.get("size")).longValue(),
          ((FileTime) a.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS),
          ((FileTime) a.get("ctime")).to(TimeUnit.NANOSECONDS));
    } catch (IOException e) {
      throw unreadable(path.isEmpty() ? "." : path, e);
    }
  }

  private static void writeFile(TarWriter writer, Entry entry, Optional<Map<String, FileFingerprint>> expected, Owner owner)
      throws IOException {
    Optional<FileFingerprint> fingerprint = Optional.empty();
    if (expected.isPresent() && !inGitDirectory(entry.path())) {
      fingerprint = Optional.ofNullable(expected.get().get(entry.path()));
      if (fingerprint.isEmpty()) {
        throw changed(entry.path(), "it appeared after the run's snapshot");
      }
      FileFingerprint f = fingerprint.get();
      Stat s = entry.stat();
      if (f.size() != s.size() || f.inode() != s.inode() || f.modifiedNanos() != s.modifiedNanos() || f.changedNanos() != s.changedNanos()) {
        throw changed(entry.path(), "its stat data differs from the run's snapshot");
      }
    }
    int mode = entry.stat().mode() & SHIPPED_PERMISSIONS;
    MessageDigest digest = sha256();
    boolean exact;
    try (InputStream in = new DigestInputStream(open(entry), digest)) {
      exact = writer.file(entry.path(), mode, entry.stat().size(), entry.stat().mtimeSeconds(), owner, in);
    }
    if (!exact || !stat(entry.file(), entry.path()).sameFile(entry.stat())) {
      throw changed(entry.path(), "it changed while it was being shipped");
    }
    Optional<String> hash = fingerprint.flatMap(FileFingerprint::sha256);
    if (hash.isPresent() && !hash.get().equalsIgnoreCase(HexFormat.of().formatHex(digest.digest()))) {
      throw changed(entry.path(), "its content differs from the one the run's snapshot hashed");
    }
  }

  private static InputStream open(Entry entry) {
    try {
      return Files.newInputStream(entry.file(), LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      throw unreadable(entry.path(), e);
    }
  }

  private static boolean inGitDirectory(String path) {
    for (String segment : path.split("/", -1)) {
      if (segment.equals(".git")) {
        return true;
      }
    }
    return false;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  private static LaunchFailedException changed(String path, String why) {
    return LaunchFailedException.withCode(WorkspaceCodes.INPUT_CHANGED,
        "the repository's " + path + " cannot be shipped: " + why + ", so the archive would not be the input the attestation describes");
  }

  private static LaunchFailedException unreadable(String path, IOException e) {
    return LaunchFailedException.withCode(WorkspaceCodes.INPUT_UNREADABLE, "the repository's " + path + " cannot be read: " + e.getMessage());
  }
}
