package dev.capability.kernel.core.internal.audit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The entries of a Git index file (versions 2, 3 and 4), read-only. Only what decides the tree
 * {@code git add -A} would write is kept: which paths are tracked, and the entries Git keeps from
 * the index instead of the working tree (skip-worktree entries and uninitialized submodules).
 * Required extensions this reader does not understand (split and sparse indexes) are refused, and
 * the trailing checksum is verified, so a damaged index fails instead of silently hashing wrong.
 */
final class GitIndex {
  private static final int SHA1_BYTES = 20;
  private static final int EXTENDED = 0x4000;
  private static final int STAGE_MASK = 0x3000;
  private static final int NAME_MASK = 0x0fff;
  private static final int SKIP_WORKTREE = 0x4000;

  /** One index entry at stage 0, or the first stage seen of a conflicted path. */
  record Entry(String path, FileMode mode, ObjectId id, boolean skipWorktree) {}

  private final Map<String, Entry> entries;
  private final Set<String> trackedDirectories;

  private GitIndex(Map<String, Entry> entries) {
    this.entries = entries;
    this.trackedDirectories = new HashSet<>();
    for (String path : entries.keySet()) {
      for (String dir = IgnoreRules.parentOf(path); !dir.isEmpty() && trackedDirectories.add(dir); ) {
        dir = IgnoreRules.parentOf(dir);
      }
    }
  }

  static GitIndex empty() {
    return new GitIndex(Map.of());
  }

  /** Reads {@code file}; a missing file is an empty index, as for Git. */
  static GitIndex read(Path file) throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return empty();
    }
    return new GitIndex(parse(bytes, file));
  }

  boolean tracks(String path) {
    return entries.containsKey(path);
  }

  /** Whether some tracked path lies below {@code directory}. */
  boolean tracksBelow(String directory) {
    return trackedDirectories.contains(directory);
  }

  Optional<Entry> entry(String path) {
    return Optional.ofNullable(entries.get(path));
  }

  List<Entry> skipWorktreeEntries() {
    return entries.values().stream().filter(Entry::skipWorktree).toList();
  }

  private static Map<String, Entry> parse(byte[] bytes, Path file) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    try {
      if (bytes.length < 12 + SHA1_BYTES || in.getInt() != 0x44495243) {
        throw corrupt(file, "does not start with an index header");
      }
      verifyChecksum(bytes, file);
      int version = in.getInt();
      if (version < 2 || version > 4) {
        throw corrupt(file, "has index version " + version + "; versions 2 to 4 are understood");
      }
      int count = in.getInt();
      if (count < 0) {
        throw corrupt(file, "claims a negative entry count");
      }
      Map<String, Entry> entries = new HashMap<>();
      byte[] previous = new byte[0];
      for (int i = 0; i < count; i++) {
        int start = in.position();
        // ctime, mtime, dev and ino are skipped: stat data is what the audit does not trust.
        in.position(start + 24);
        int mode = in.getInt();
        in.position(in.position() + 12); // uid, gid, size
        byte[] id = new byte[SHA1_BYTES];
        in.get(id);
        int flags = Short.toUnsignedInt(in.getShort());
        int extended = 0;
        if ((flags & EXTENDED) != 0) {
          if (version < 3) {
            throw corrupt(file, "has an extended entry in a version 2 index");
          }
          extended = Short.toUnsignedInt(in.getShort());
        }
        byte[] name;
        if (version == 4) {
          int strip = varint(in);
          if (strip > previous.length) {
            throw corrupt(file, "has a path prefix longer than the previous path at entry " + i);
          }
          byte[] suffix = untilNul(in);
          name = Arrays.copyOf(previous, previous.length - strip + suffix.length);
          System.arraycopy(suffix, 0, name, previous.length - strip, suffix.length);
        } else {
          name = untilNul(in);
          int length = in.position() - start;
          int padded = (length + 7) & ~7;
          in.position(start + padded);
        }
        previous = name;
        if ((flags & NAME_MASK) != Math.min(name.length, NAME_MASK)) {
          throw corrupt(file, "has a name length that does not match its path at entry " + i);
        }
        String path = utf8(name, file);
        // The assume-valid bit is not read: such an entry is hashed from the working tree like any
        // tracked file, because the bit is a promise by whoever wrote the index.
        boolean skipWorktree = (extended & SKIP_WORKTREE) != 0 && (flags & STAGE_MASK) == 0;
        entries.putIfAbsent(path, new Entry(path, FileMode.fromBits(mode), ObjectId.fromRaw(id), skipWorktree));
      }
      readExtensions(in, bytes.length - SHA1_BYTES, file);
      return entries;
    } catch (java.nio.BufferUnderflowException | IndexOutOfBoundsException | IllegalArgumentException e) {
      throw new AuditException(AuditException.SNAPSHOT_FAILED, "the Git index " + file + " is truncated or corrupt", e);
    }
  }

  private static void readExtensions(ByteBuffer in, int end, Path file) {
    while (in.position() < end) {
      byte[] signature = new byte[4];
      in.get(signature);
      long size = Integer.toUnsignedLong(in.getInt());
      if (signature[0] < 'A' || signature[0] > 'Z') {
        throw new AuditException(
            AuditException.SNAPSHOT_FAILED,
            "the Git index " + file + " needs the '" + new String(signature, StandardCharsets.US_ASCII)
                + "' extension (a split or sparse index), which this audit does not read; run 'git update-index --no-split-index' or 'git sparse-checkout disable'");
      }
      if (size > end - in.position()) {
        throw corrupt(file, "has an extension that runs past its end");
      }
      in.position(in.position() + (int) size);
    }
  }

  private static void verifyChecksum(byte[] bytes, Path file) {
    int body = bytes.length - SHA1_BYTES;
    byte[] trailer = Arrays.copyOfRange(bytes, body, bytes.length);
    if (Arrays.equals(trailer, new byte[SHA1_BYTES])) {
      return; // index.skipHash: Git wrote no checksum
    }
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      sha1.update(bytes, 0, body);
      if (!MessageDigest.isEqual(sha1.digest(), trailer)) {
        throw corrupt(file, "fails its checksum");
      }
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-1", e);
    }
  }

  /** Git's offset varint: each continuation adds one before shifting, so encodings are unique. */
  private static int varint(ByteBuffer in) {
    int b = Byte.toUnsignedInt(in.get());
    long value = b & 0x7f;
    while ((b & 0x80) != 0) {
      b = Byte.toUnsignedInt(in.get());
      value = ((value + 1) << 7) | (b & 0x7f);
      if (value > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("varint overflow");
      }
    }
    return (int) value;
  }

  private static byte[] untilNul(ByteBuffer in) {
    int start = in.position();
    int end = start;
    while (in.get(end) != 0) {
      end++;
    }
    byte[] name = new byte[end - start];
    in.get(name);
    in.get(); // the terminator
    return name;
  }

  private static String utf8(byte[] name, Path file) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(name))
          .toString();
    } catch (CharacterCodingException e) {
      throw new AuditException(AuditException.SNAPSHOT_FAILED, "the Git index " + file + " holds a path that is not UTF-8", e);
    }
  }

  private static AuditException corrupt(Path file, String what) {
    return new AuditException(AuditException.SNAPSHOT_FAILED, "the Git index " + file + " " + what);
  }
}
