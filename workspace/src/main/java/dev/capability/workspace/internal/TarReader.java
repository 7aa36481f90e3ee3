package dev.capability.workspace.internal;

import dev.capability.workspace.WorkspaceCodes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * A strict reader of POSIX tar archives. Accepts ustar headers (POSIX or GNU magic) whose
 * checksums and octal numbers are well formed, and pax extended headers of which it honours
 * {@code path}, {@code linkpath} and {@code size} and ignores other keys. Refuses hard links,
 * devices, fifos, sparse files, GNU extension headers, global pax headers and unknown types; an
 * archive that ends before its two zero blocks, or holds anything but zeros after them; and more
 * bytes or entries than its limits.
 */
final class TarReader {
  /** The largest pax extended header read: its records are names and numbers, never content. */
  private static final int MAX_PAX_BYTES = 1 << 20;

  private final InputStream in;
  private final long maxBytes;
  private final int maxEntries;
  private final byte[] block = new byte[Tar.BLOCK];
  private long bytes;
  private long entries;
  private long contentLeft;
  private long paddingLeft;
  private boolean ended;

  TarReader(InputStream in, long maxBytes, int maxEntries) {
    this.in = in;
    this.maxBytes = maxBytes;
    this.maxEntries = maxEntries;
  }

  long bytes() {
    return bytes;
  }

  long entries() {
    return entries;
  }

  /**
   * The next entry, its content then readable with {@link #readContent}; null after the end blocks
   * and the zero padding that may follow them were read to the stream's end.
   */
  @Nullable TarEntry next() throws IOException {
    if (ended) {
      return null;
    }
    skip(contentLeft + paddingLeft);
    contentLeft = 0;
    paddingLeft = 0;
    String paxPath = null;
    String paxLinkPath = null;
    long paxSize = -1;
    boolean pax = false;
    while (true) {
      if (!readBlock()) {
        throw corrupt("the archive ends without its two zero end blocks" + (pax ? ", after a pax header" : ""));
      }
      if (isZero(block)) {
        if (pax) {
          throw corrupt("a pax extended header is followed by the end of the archive instead of an entry");
        }
        if (!readBlock() || !isZero(block)) {
          throw corrupt("the archive's first zero end block is not followed by a second one");
        }
        drainTrailer();
        ended = true;
        return null;
      }
      entries++;
      if (entries > maxEntries) {
        throw new ArchiveRefusal(WorkspaceCodes.RETURN_TOO_MANY_ENTRIES, "the archive holds more than " + maxEntries + " entries");
      }
      verifyChecksum();
      String ustarName = ustarName();
      byte type = block[156];
      long size = octal(124, 12, "size", ustarName);
      int mode = (int) (octal(100, 8, "mode", ustarName) & 07777);
      long mtime = octal(136, 12, "mtime", ustarName);
      if (type == Tar.PAX) {
        if (pax) {
          throw corrupt("two pax extended headers in a row, at " + EntryNames.printable(ustarName));
        }
        if (size > MAX_PAX_BYTES) {
          throw new ArchiveRefusal(WorkspaceCodes.RETURN_TOO_LARGE, "the pax header " + EntryNames.printable(ustarName)
              + " holds " + size + " bytes, more than " + MAX_PAX_BYTES);
        }
        byte[] records = readData((int) size);
        PaxValues values = PaxValues.parse(records, ustarName);
        paxPath = values.path();
        paxLinkPath = values.linkPath();
        paxSize = values.size();
        pax = true;
        continue;
      }
      String name = paxPath != null ? paxPath : ustarName;
      String linkName = paxLinkPath != null ? paxLinkPath : field(157, Tar.NAME_FIELD, "link name", name);
      if (paxSize >= 0) {
        size = paxSize;
      }
      requireAccepted(type, name);
      if (type != Tar.REGULAR && type != Tar.REGULAR_OLD) {
        if (size != 0) {
          throw corrupt("the " + (type == Tar.DIRECTORY ? "directory " : "symbolic link ") + EntryNames.printable(name)
              + " declares " + size + " bytes of content");
        }
        linkName = type == Tar.SYMLINK ? linkName : "";
      } else {
        linkName = "";
      }
      if (Tar.padded(size) > maxBytes - bytes) {
        throw new ArchiveRefusal(WorkspaceCodes.RETURN_TOO_LARGE, "the entry " + EntryNames.printable(name) + " holds " + size
            + " bytes, more than the archive's limit of " + maxBytes + " allows");
      }
      contentLeft = size;
      paddingLeft = Tar.padded(size) - size;
      return new TarEntry(name, type == Tar.REGULAR_OLD ? Tar.REGULAR : type, linkName, size, mode, mtime);
    }
  }

  /** Reads the current entry's content into {@code buffer}; -1 at its end. */
  int readContent(byte[] buffer) throws IOException {
    if (contentLeft == 0) {
      return -1;
    }
    int want = (int) Math.min(buffer.length, contentLeft);
    int read = in.read(buffer, 0, want);
    if (read < 0) {
      throw corrupt("the archive ends inside an entry's content");
    }
    count(read);
    contentLeft -= read;
    return read;
  }

  private static void requireAccepted(byte type, String name) {
    switch (type) {
      case Tar.REGULAR, Tar.REGULAR_OLD, Tar.DIRECTORY, Tar.SYMLINK -> { }
      case Tar.HARD_LINK -> throw new ArchiveRefusal(WorkspaceCodes.RETURN_HARD_LINK,
          "the entry " + EntryNames.printable(name) + " is a hard link; hard links are never accepted");
      case Tar.CHARACTER_DEVICE, Tar.BLOCK_DEVICE, Tar.FIFO -> throw new ArchiveRefusal(WorkspaceCodes.RETURN_SPECIAL_FILE,
          "the entry " + EntryNames.printable(name) + " is a " + (type == Tar.FIFO ? "fifo" : "device") + "; only files, directories and symbolic links are accepted");
      default -> throw new ArchiveRefusal(WorkspaceCodes.RETURN_UNSUPPORTED_TYPE, "the entry " + EntryNames.printable(name)
          + " has the type '" + printableType(type) + "' (a sparse file, a GNU extension, a global header or unknown); only files, directories and symbolic links are accepted");
    }
  }

  private static String printableType(byte type) {
    return type >= 0x21 && type < 0x7f ? String.valueOf((char) type) : String.format("\\x%02x", type & 0xff);
  }

  private void verifyChecksum() {
    long stored = octal(148, 8, "checksum", "a header");
    long sum = 0;
    for (int i = 0; i < Tar.BLOCK; i++) {
      sum += (i >= 148 && i < 156) ? ' ' : Byte.toUnsignedInt(block[i]);
    }
    if (sum != stored) {
      throw corrupt("a header's checksum is " + stored + " but its bytes sum to " + sum + " (entry " + (entries) + ")");
    }
    boolean posix = Arrays.equals(block, 257, 263, "ustar\0".getBytes(StandardCharsets.US_ASCII), 0, 6)
        && block[263] == '0' && block[264] == '0';
    boolean gnu = Arrays.equals(block, 257, 265, "ustar  \0".getBytes(StandardCharsets.US_ASCII), 0, 8);
    if (!posix && !gnu) {
      throw corrupt("a header (entry " + entries + ") is not a ustar header: only POSIX (ustar, pax) archives are read");
    }
  }

  private String ustarName() {
    String name = field(0, Tar.NAME_FIELD, "name", "a header");
    boolean posix = block[257 + 5] == 0;
    if (posix && block[345] != 0) {
      return field(345, 155, "name prefix", name) + "/" + name;
    }
    return name;
  }

  /** A NUL-terminated text field, which must be UTF-8. */
  private String field(int offset, int length, String what, String entry) {
    int end = offset;
    while (end < offset + length && block[end] != 0) {
      end++;
    }
    return utf8(Arrays.copyOfRange(block, offset, end), "the " + what + " of " + EntryNames.printable(entry));
  }

  static String utf8(byte[] bytes, String what) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new ArchiveRefusal(WorkspaceCodes.RETURN_HOSTILE_NAME, what + " is not valid UTF-8");
    }
  }

  /** An octal number field: optional leading spaces, octal digits, then NUL or spaces to its end. */
  private long octal(int offset, int length, String what, String entry) {
    int i = offset;
    int end = offset + length;
    while (i < end && block[i] == ' ') {
      i++;
    }
    long value = 0;
    int digits = 0;
    while (i < end && block[i] >= '0' && block[i] <= '7') {
      value = value * 8 + (block[i] - '0');
      digits++;
      i++;
    }
    while (i < end && (block[i] == 0 || block[i] == ' ')) {
      i++;
    }
    if (i != end || digits == 0 || digits > 11) {
      throw corrupt("the " + what + " field of " + EntryNames.printable(entry) + " is not an octal number");
    }
    return value;
  }

  private byte[] readData(int size) throws IOException {
    byte[] data = new byte[size];
    int off = 0;
    while (off < size) {
      int read = in.read(data, off, size - off);
      if (read < 0) {
        throw corrupt("the archive ends inside a pax extended header");
      }
      count(read);
      off += read;
    }
    skip(Tar.padded(size) - size);
    return data;
  }

  private boolean readBlock() throws IOException {
    int off = 0;
    while (off < Tar.BLOCK) {
      int read = in.read(block, off, Tar.BLOCK - off);
      if (read < 0) {
        if (off == 0) {
          return false;
        }
        throw corrupt("the archive ends inside a header block");
      }
      count(read);
      off += read;
    }
    return true;
  }

  private void skip(long length) throws IOException {
    byte[] buffer = new byte[8192];
    long left = length;
    while (left > 0) {
      int read = in.read(buffer, 0, (int) Math.min(buffer.length, left));
      if (read < 0) {
        throw corrupt("the archive ends inside an entry's content");
      }
      count(read);
      left -= read;
    }
  }

  /** After the end blocks only zeros may follow (tar pads to its record size), up to the byte limit. */
  private void drainTrailer() throws IOException {
    byte[] buffer = new byte[8192];
    for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
      count(read);
      for (int i = 0; i < read; i++) {
        if (buffer[i] != 0) {
          throw corrupt("the archive holds data after its end blocks");
        }
      }
    }
  }

  private void count(int read) {
    bytes += read;
    if (bytes > maxBytes) {
      throw new ArchiveRefusal(WorkspaceCodes.RETURN_TOO_LARGE, "the archive holds more than " + maxBytes + " bytes");
    }
  }

  private static boolean isZero(byte[] b) {
    for (byte x : b) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }

  private static ArchiveRefusal corrupt(String message) {
    return new ArchiveRefusal(WorkspaceCodes.RETURN_CORRUPT, message);
  }

  /** The values of a pax extended header that the reader honours. */
  private record PaxValues(@Nullable String path, @Nullable String linkPath, long size) {
    static PaxValues parse(byte[] data, String header) {
      String path = null;
      String linkPath = null;
      long size = -1;
      int pos = 0;
      while (pos < data.length) {
        int space = pos;
        while (space < data.length && data[space] >= '0' && data[space] <= '9' && space - pos < 10) {
          space++;
        }
        if (space == pos || space >= data.length || data[space] != ' ') {
          throw corrupt("a record of the pax header " + EntryNames.printable(header) + " does not start with its length");
        }
        int length = Integer.parseInt(new String(data, pos, space - pos, StandardCharsets.US_ASCII));
        int end = pos + length;
        if (length <= space - pos + 1 || end > data.length || data[end - 1] != '\n') {
          throw corrupt("a record of the pax header " + EntryNames.printable(header) + " has a wrong length");
        }
        int equals = space + 1;
        while (equals < end - 1 && data[equals] != '=') {
          equals++;
        }
        if (equals >= end - 1 || equals == space + 1) {
          throw corrupt("a record of the pax header " + EntryNames.printable(header) + " is not key=value");
        }
        String key = utf8(Arrays.copyOfRange(data, space + 1, equals), "a key of the pax header " + EntryNames.printable(header));
        byte[] value = Arrays.copyOfRange(data, equals + 1, end - 1);
        switch (key) {
          case "path" -> path = utf8(value, "the pax path of " + EntryNames.printable(header));
          case "linkpath" -> linkPath = utf8(value, "the pax link path of " + EntryNames.printable(header));
          case "size" -> size = decimal(value, header);
          default -> {
            if (key.startsWith("GNU.sparse.")) {
              throw new ArchiveRefusal(WorkspaceCodes.RETURN_UNSUPPORTED_TYPE,
                  "the pax header " + EntryNames.printable(header) + " describes a sparse file; sparse files are not accepted");
            }
          }
        }
        pos = end;
      }
      return new PaxValues(path, linkPath, size);
    }

    private static long decimal(byte[] value, String header) {
      if (value.length == 0 || value.length > 18) {
        throw corrupt("the pax size of " + EntryNames.printable(header) + " is not a decimal number");
      }
      long n = 0;
      for (byte b : value) {
        if (b < '0' || b > '9') {
          throw corrupt("the pax size of " + EntryNames.printable(header) + " is not a decimal number");
        }
        n = n * 10 + (b - '0');
      }
      return n;
    }
  }
}
