package dev.capability.capability.runtime.internal.archive;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import dev.capability.capability.runtime.internal.effects.ScopeGrammar;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Reads a zip or jar from memory by parsing the central directory and every local header itself,
 * so that any disagreement between the two, any byte not owned by exactly one structure, and any
 * feature it does not understand is a refusal rather than a guess. Zip64, multi-disk archives,
 * encryption, archive and entry comments, and methods other than stored and deflated are refused.
 */
public final class ZipReader {
  private static final int LOCAL = 0x04034b50;
  private static final int CENTRAL = 0x02014b50;
  private static final int END = 0x06054b50;
  private static final int DESCRIPTOR = 0x08074b50;
  private static final int ZIP64_LOCATOR = 0x07064b50;
  private static final int END_SIZE = 22;
  private static final int CENTRAL_SIZE = 46;
  private static final int LOCAL_SIZE = 30;
  private static final int FLAG_ENCRYPTED = 1;
  private static final int FLAG_DESCRIPTOR = 1 << 3;
  private static final int FLAG_STRONG_ENCRYPTION = 1 << 6;
  private static final int FLAG_UTF8 = 1 << 11;
  private static final int FLAG_MASKED_HEADERS = 1 << 13;
  private static final int STORED = 0;
  private static final int DEFLATED = 8;
  private static final int AES = 99;
  private static final int UNIX_HOST = 3;

  private final byte[] zip;
  private final ArchiveLimits limits;

  private record CentralEntry(
      String name,
      byte[] rawName,
      int flags,
      int method,
      long crc,
      long compressedSize,
      long size,
      long localOffset) {}

  private ZipReader(byte[] zip, ArchiveLimits limits) {
    this.zip = zip;
    this.limits = limits;
  }

  /** Whether {@code bytes} end with a zip end-of-central-directory record (comment-less or not). */
  public static boolean looksLikeZip(byte[] bytes) {
    return findEnd(bytes) >= 0;
  }

  /** Reads every entry of the archive into checked contents. */
  public static PackageContents read(byte[] zip, ArchiveLimits limits, boolean allowJars) {
    return new ZipReader(zip, limits).read(new PackageContents.Builder(limits, allowJars));
  }

  private PackageContents read(PackageContents.Builder builder) {
    if (zip.length < END_SIZE) {
      throw refused(CapabilityCodes.ARCHIVE_CORRUPT, "too short to be a zip archive");
    }
    int end = zip.length - END_SIZE;
    if (u32(end) != END) {
      if (findEnd(zip) >= 0) {
        throw refused(
            CapabilityCodes.ARCHIVE_PREPENDED_DATA,
            "bytes follow the end-of-central-directory record (an archive comment or appended data)");
      }
      throw refused(CapabilityCodes.ARCHIVE_CORRUPT, "no end-of-central-directory record");
    }
    if (end >= 20 && u32(end - 20) == ZIP64_LOCATOR) {
      throw refused(CapabilityCodes.ARCHIVE_UNSUPPORTED, "zip64 archives are not supported");
    }
    int disk = u16(end + 4);
    int centralDisk = u16(end + 6);
    int entriesOnDisk = u16(end + 8);
    int entries = u16(end + 10);
    long centralSize = u32(end + 12);
    long centralOffset = u32(end + 16);
    if (entries == 0xffff || centralSize == 0xffffffffL || centralOffset == 0xffffffffL) {
      throw refused(CapabilityCodes.ARCHIVE_UNSUPPORTED, "zip64 archives are not supported");
    }
    if (disk != 0 || centralDisk != 0 || entriesOnDisk != entries) {
      throw refused(CapabilityCodes.ARCHIVE_UNSUPPORTED, "multi-disk archives are not supported");
    }
    if (entries > limits.maxEntries()) {
      throw refused(CapabilityCodes.ARCHIVE_BOMB, entries + " entries; the limit is " + limits.maxEntries());
    }
    if (centralOffset + centralSize < end) {
      throw refused(
          CapabilityCodes.ARCHIVE_PREPENDED_DATA,
          "hidden bytes between the central directory and its end record");
    }
    if (centralOffset + centralSize > end) {
      throw refused(CapabilityCodes.ARCHIVE_OVERLAPPING_ENTRIES, "the central directory overlaps its end record");
    }
    List<CentralEntry> central = readCentral((int) centralOffset, entries, end);
    checkLocalLayout(central, centralOffset);
    for (CentralEntry entry : central) {
      if (entry.name.endsWith("/")) {
        builder.directory(entry.name);
      } else {
        builder.file(entry.name, data(entry));
      }
    }
    return builder.build();
  }

  private List<CentralEntry> readCentral(int offset, int entries, int end) {
    List<CentralEntry> central = new ArrayList<>(entries);
    int at = offset;
    for (int i = 0; i < entries; i++) {
      if (at + CENTRAL_SIZE > end || u32(at) != CENTRAL) {
        throw refused(CapabilityCodes.ARCHIVE_HEADER_MISMATCH, "central directory entry " + i + " is missing or malformed");
      }
      int madeBy = u16(at + 4);
      int flags = u16(at + 8);
      int method = u16(at + 10);
      long crc = u32(at + 16);
      long compressed = u32(at + 20);
      long size = u32(at + 24);
      int nameLength = u16(at + 28);
      int extraLength = u16(at + 30);
      int commentLength = u16(at + 32);
      int diskStart = u16(at + 34);
      long external = u32(at + 38);
      long localOffset = u32(at + 42);
      int next = at + CENTRAL_SIZE + nameLength + extraLength + commentLength;
      if (next > end) {
        throw refused(CapabilityCodes.ARCHIVE_HEADER_MISMATCH, "central directory entry " + i + " runs past the directory");
      }
      byte[] rawName = Arrays.copyOfRange(zip, at + CENTRAL_SIZE, at + CENTRAL_SIZE + nameLength);
      String name = decodeName(rawName, flags);
      String where = "entry '" + ScopeGrammar.printable(name) + "'";
      checkFlagsAndMethod(flags, method, where);
      if (compressed == 0xffffffffL || size == 0xffffffffL || localOffset == 0xffffffffL) {
        throw refused(CapabilityCodes.ARCHIVE_UNSUPPORTED, where + " uses zip64 sizes");
      }
      if (diskStart != 0) {
        throw refused(CapabilityCodes.ARCHIVE_UNSUPPORTED, where + " starts on another disk");
      }
      if (commentLength != 0) {
        throw refused(CapabilityCodes.ARCHIVE_UNSUPPORTED, where + " has a comment; entry comments are refused");
      }
      checkExtra(at + CENTRAL_SIZE + nameLength, extraLength, where);
      checkFileType(madeBy, external, name, where);
      if (name.endsWith("/") && size != 0) {
        throw refused(CapabilityCodes.ARCHIVE_HEADER_MISMATCH, where + " is a directory with content");
      }
      central.add(new CentralEntry(name, rawName, flags, method, crc, compressed, size, localOffset));
      at = next;
    }
    if (at != end) {
      throw refused(
          CapabilityCodes.ARCHIVE_HEADER_MISMATCH, "the central directory holds more than its " + entries + " entries");
    }
    return central;
  }

  private void checkLocalLayout(List<CentralEntry> central, long centralOffset) {
    List<CentralEntry> byOffset = new ArrayList<>(central);
    byOffset.sort(Comparator.comparingLong(CentralEntry::localOffset));
    long expected = 0;
    for (CentralEntry entry : byOffset) {
      String where = "entry '" + ScopeGrammar.printable(entry.name) + "'";
      if (entry.localOffset > expected) {
        throw refused(
            CapabilityCodes.ARCHIVE_PREPENDED_DATA,
            (expected == 0 ? "bytes before the first entry" : "hidden bytes before " + where)
                + " that no header accounts for");
      }
      if (entry.localOffset < expected) {
        throw refused(CapabilityCodes.ARCHIVE_OVERLAPPING_ENTRIES, where + " overlaps the entry before it");
      }
      expected = checkLocal(entry, where);
    }
    if (expected < centralOffset) {
      throw refused(CapabilityCodes.ARCHIVE_PREPENDED_DATA, "hidden bytes between the last entry and the central directory");
    }
    if (expected > centralOffset) {
      throw refused(CapabilityCodes.ARCHIVE_OVERLAPPING_ENTRIES, "the last entry overlaps the central directory");
    }
  }

  /** Checks the local header and data descriptor against the central entry; returns the entry's end. */
  private long checkLocal(CentralEntry entry, String where) {
    int at = (int) entry.localOffset;
    if ((long) at + LOCAL_SIZE > zip.length || u32(at) != LOCAL) {
      throw refused(CapabilityCodes.ARCHIVE_HEADER_MISMATCH, where + " has no local header where the central directory points");
    }
    int flags = u16(at + 6);
    int method = u16(at + 8);
    long crc = u32(at + 14);
    long compressed = u32(at + 18);
    long size = u32(at + 22);
    int nameLength = u16(at + 26);
    int extraLength = u16(at + 28);
    if (flags != entry.flags || method != entry.method) {
      throw refused(CapabilityCodes.ARCHIVE_HEADER_MISMATCH, where + ": local header flags or method differ from the central directory");
    }
    if ((long) at + LOCAL_SIZE + nameLength + extraLength > zip.length
        || !Arrays.equals(zip, at + LOCAL_SIZE, at + LOCAL_SIZE + nameLength, entry.rawName, 0, entry.rawName.length)) {
      throw refused(CapabilityCodes.ARCHIVE_HEADER_MISMATCH, where + ": local header name differs from the central directory");
    }
    checkExtra(at + LOCAL_SIZE + nameLength, extraLength, where);
    boolean descriptor = (flags & FLAG_DESCRIPTOR) != 0;
    boolean deferred = descriptor && crc == 0 && compressed == 0 && size == 0;
    if (!deferred && (crc != entry.crc || compressed != entry.compressedSize || size != entry.size)) {
      throw refused(CapabilityCodes.ARCHIVE_HEADER_MISMATCH, where + ": local header CRC or sizes differ from the central directory");
    }
    long dataEnd = (long) at + LOCAL_SIZE + nameLength + extraLength + entry.compressedSize;
    if (dataEnd > zip.length) {
      throw refused(CapabilityCodes.ARCHIVE_CORRUPT, where + " runs past the end of the archive");
    }
    if (!descriptor) {
      return dataEnd;
    }
    int d = (int) dataEnd;
    if (d + 4 <= zip.length && u32(d) == DESCRIPTOR) {
      d += 4;
    }
    if ((long) d + 12 > zip.length
        || u32(d) != entry.crc
        || u32(d + 4) != entry.compressedSize
        || u32(d + 8) != entry.size) {
      throw refused(CapabilityCodes.ARCHIVE_HEADER_MISMATCH, where + ": data descriptor differs from the central directory");
    }
    return d + 12L;
  }

  private byte[] data(CentralEntry entry) {
    String where = "entry '" + ScopeGrammar.printable(entry.name) + "'";
    if (entry.size > limits.maxEntryBytes()) {
      throw refused(CapabilityCodes.ARCHIVE_BOMB, where + " declares " + entry.size + " bytes; the limit is " + limits.maxEntryBytes());
    }
    if (entry.size > ArchiveLimits.RATIO_FLOOR && entry.size > entry.compressedSize * limits.maxRatio()) {
      throw refused(CapabilityCodes.ARCHIVE_BOMB, where + " compresses more than " + limits.maxRatio() + ":1");
    }
    int at = (int) entry.localOffset;
    int start = at + LOCAL_SIZE + u16(at + 26) + u16(at + 28);
    byte[] out;
    if (entry.method == STORED) {
      if (entry.compressedSize != entry.size) {
        throw refused(CapabilityCodes.ARCHIVE_HEADER_MISMATCH, where + " is stored with two different sizes");
      }
      out = Arrays.copyOfRange(zip, start, start + (int) entry.size);
    } else {
      out = inflate(start, (int) entry.compressedSize, (int) entry.size, where);
    }
    CRC32 crc = new CRC32();
    crc.update(out);
    if (crc.getValue() != entry.crc) {
      throw refused(CapabilityCodes.ARCHIVE_CORRUPT, where + " fails its CRC");
    }
    return out;
  }

  private byte[] inflate(int start, int compressed, int size, String where) {
    Inflater inflater = new Inflater(true);
    try {
      inflater.setInput(zip, start, compressed);
      // One spare byte: producing it proves the declared size was a lie, without inflating further.
      byte[] buffer = new byte[size + 1];
      int produced = 0;
      while (!inflater.finished() && produced <= size) {
        int n = inflater.inflate(buffer, produced, buffer.length - produced);
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          throw refused(CapabilityCodes.ARCHIVE_CORRUPT, where + " ends before its deflate stream does");
        }
        produced += n;
      }
      if (produced != size) {
        throw refused(CapabilityCodes.ARCHIVE_HEADER_MISMATCH, where + " inflates to more or fewer bytes than declared");
      }
      if (inflater.getRemaining() != 0) {
        throw refused(CapabilityCodes.ARCHIVE_PREPENDED_DATA, where + " has hidden bytes after its deflate stream");
      }
      return Arrays.copyOf(buffer, size);
    } catch (DataFormatException e) {
      throw refused(CapabilityCodes.ARCHIVE_CORRUPT, where + " has a corrupt deflate stream");
    } finally {
      inflater.end();
    }
  }

  private static void checkFlagsAndMethod(int flags, int method, String where) {
    if ((flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION | FLAG_MASKED_HEADERS)) != 0 || method == AES) {
      throw refused(CapabilityCodes.ARCHIVE_ENCRYPTED, where + " is encrypted");
    }
    if (method != STORED && method != DEFLATED) {
      throw refused(CapabilityCodes.ARCHIVE_UNSUPPORTED, where + " uses compression method " + method);
    }
  }

  private void checkExtra(int at, int length, String where) {
    int end = at + length;
    while (at < end) {
      if (at + 4 > end) {
        throw refused(CapabilityCodes.ARCHIVE_CORRUPT, where + " has a malformed extra field");
      }
      int id = u16(at);
      int size = u16(at + 2);
      if (id == 0x0001) {
        throw refused(CapabilityCodes.ARCHIVE_UNSUPPORTED, where + " has a zip64 extra field");
      }
      if (id == 0x7075 || id == 0x6375) {
        throw refused(CapabilityCodes.ARCHIVE_UNSUPPORTED, where + " carries a second (Unicode extra field) name");
      }
      if (id == 0x9901) {
        throw refused(CapabilityCodes.ARCHIVE_ENCRYPTED, where + " is AES-encrypted");
      }
      at += 4 + size;
    }
    if (at != end) {
      throw refused(CapabilityCodes.ARCHIVE_CORRUPT, where + " has a malformed extra field");
    }
  }

  private static void checkFileType(int madeBy, long external, String name, String where) {
    if ((madeBy >> 8) != UNIX_HOST) {
      return;
    }
    int type = (int) (external >>> 16) & 0170000;
    switch (type) {
      case 0, 0100000 -> {
        if (type != 0 && name.endsWith("/")) {
          throw refused(CapabilityCodes.ARCHIVE_HEADER_MISMATCH, where + " is a regular file with a directory name");
        }
      }
      case 0040000 -> {
        if (!name.endsWith("/")) {
          throw refused(CapabilityCodes.ARCHIVE_HEADER_MISMATCH, where + " is a directory without a trailing '/'");
        }
      }
      case 0120000 -> throw refused(CapabilityCodes.ARCHIVE_SYMLINK, where + " is a symbolic link");
      default -> throw refused(CapabilityCodes.ARCHIVE_SPECIAL_FILE, where + " is a device, FIFO or socket");
    }
  }

  private static String decodeName(byte[] raw, int flags) {
    boolean ascii = true;
    for (byte b : raw) {
      ascii &= b >= 0;
    }
    if (!ascii && (flags & FLAG_UTF8) == 0) {
      throw refused(CapabilityCodes.ARCHIVE_HOSTILE_NAME, "a non-ASCII entry name lacks the UTF-8 flag, so its encoding is ambiguous");
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(raw))
          .toString();
    } catch (CharacterCodingException e) {
      throw refused(CapabilityCodes.ARCHIVE_HOSTILE_NAME, "an entry name is not well-formed UTF-8");
    }
  }

  private static int findEnd(byte[] bytes) {
    int lowest = Math.max(0, bytes.length - END_SIZE - 0xffff);
    for (int at = bytes.length - END_SIZE; at >= lowest; at--) {
      if (at >= 0 && le32(bytes, at) == END) {
        return at;
      }
    }
    return -1;
  }

  private int u16(int at) {
    if (at < 0 || at + 2 > zip.length) {
      throw refused(CapabilityCodes.ARCHIVE_CORRUPT, "a header runs past the end of the archive");
    }
    return (zip[at] & 0xff) | (zip[at + 1] & 0xff) << 8;
  }

  private long u32(int at) {
    if (at < 0 || at + 4 > zip.length) {
      throw refused(CapabilityCodes.ARCHIVE_CORRUPT, "a header runs past the end of the archive");
    }
    return le32(zip, at);
  }

  private static long le32(byte[] bytes, int at) {
    return (bytes[at] & 0xffL) | (bytes[at + 1] & 0xffL) << 8 | (bytes[at + 2] & 0xffL) << 16 | (bytes[at + 3] & 0xffL) << 24;
  }

  private static PackageRefusedException refused(String code, String message) {
    return new PackageRefusedException(code, message);
  }
}
