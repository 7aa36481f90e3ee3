package dev.capability.workspace.internal;

import dev.capability.kernel.api.backend.ShippedWorkspace.Owner;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Writes a POSIX tar archive: a ustar header per entry, preceded by a pax extended header where a
 * name or link target does not fit the ustar field or is not ASCII, or a number does not fit its
 * octal field. Counts and hashes every byte it writes.
 */
final class TarWriter {
  private final OutputStream out;
  private final MessageDigest digest;
  private long bytes;
  private long entries;

  TarWriter(OutputStream out) {
    this.out = out;
    try {
      this.digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  /** The bytes an entry takes in the archive: its headers and its padded content. */
  static long entryBytes(String name, String linkName, long size, Owner owner, long mtime) {
    byte[] pax = paxRecords(name, linkName, size, owner, mtime);
    long paxBytes = pax.length == 0 ? 0 : Tar.BLOCK + Tar.padded(pax.length);
    return paxBytes + Tar.BLOCK + Tar.padded(size);
  }

  /** The bytes of the two zero blocks that end an archive. */
  static long endBytes() {
    return 2L * Tar.BLOCK;
  }

  void directory(String name, int mode, long mtime, Owner owner) throws IOException {
    header(name.endsWith("/") ? name : name + "/", mode, owner, 0, mtime, Tar.DIRECTORY, "");
  }

  void symlink(String name, String target, long mtime, Owner owner) throws IOException {
    header(name, 0777, owner, 0, mtime, Tar.SYMLINK, target);
  }

  /**
   * Writes a regular file of exactly {@code size} bytes read from {@code content}.
   *
   * @return false when {@code content} ended before {@code size} bytes or held more (nothing
   *     more is written then: the archive is unusable and the caller fails)
   */
  boolean file(String name, int mode, long size, long mtime, Owner owner, InputStream content) throws IOException {
    header(name, mode, owner, size, mtime, Tar.REGULAR, "");
    byte[] buffer = new byte[64 * 1024];
    long left = size;
    while (left > 0) {
      int read = content.read(buffer, 0, (int) Math.min(buffer.length, left));
      if (read < 0) {
        return false;
      }
      write(buffer, 0, read);
      left -= read;
    }
    if (content.read() >= 0) {
      return false;
    }
    pad(size);
    return true;
  }

  void finish() throws IOException {
    write(new byte[2 * Tar.BLOCK], 0, 2 * Tar.BLOCK);
    out.flush();
  }

  long bytes() {
    return bytes;
  }

  long entries() {
    return entries;
  }

  String sha256() {
    return HexFormat.of().formatHex(digest.digest());
  }

  private void header(String name, int mode, Owner owner, long size, long mtime, byte type, String linkName) throws IOException {
    byte[] pax = paxRecords(name, linkName, size, owner, mtime);
    if (pax.length > 0) {
      byte[] paxHeader = block(asciiField("PaxHeaders/" + lastSegment(name)), 0644, new Owner(0, 0), pax.length, 0, Tar.PAX, "");
      write(paxHeader, 0, Tar.BLOCK);
      write(pax, 0, pax.length);
      pad(pax.length);
    }
    byte[] header = block(asciiField(name), mode, owner, size, mtime, type, asciiField(linkName));
    write(header, 0, Tar.BLOCK);
    entries++;
  }

  private static String lastSegment(String name) {
    String trimmed = name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
    return trimmed.substring(trimmed.lastIndexOf('/') + 1);
  }

  /** The ustar header block; fields that do not fit are already carried by the pax header. */
  private static byte[] block(String name, int mode, Owner owner, long size, long mtime, byte type, String linkName) {
    byte[] b = new byte[Tar.BLOCK];
    text(b, 0, Tar.NAME_FIELD, name);
    octal(b, 100, 8, mode);
    octal(b, 108, 8, Math.min(owner.uid(), Tar.MAX_OCTAL_7));
    octal(b, 116, 8, Math.min(owner.gid(), Tar.MAX_OCTAL_7));
    octal(b, 124, 12, size > Tar.MAX_OCTAL_11 ? 0 : size);
    octal(b, 136, 12, Math.max(0, Math.min(mtime, Tar.MAX_OCTAL_11)));
    b[156] = type;
    text(b, 157, Tar.NAME_FIELD, linkName);
    text(b, 257, 6, "ustar");
    text(b, 263, 2, "00");
    Arrays.fill(b, 148, 156, (byte) ' ');
    long sum = 0;
    for (byte x : b) {
      sum += Byte.toUnsignedInt(x);
    }
    octal(b, 148, 7, sum);
    b[155] = ' ';
    return b;
  }

  /** The pax records an entry needs, or none when ustar holds it exactly. */
  private static byte[] paxRecords(String name, String linkName, long size, Owner owner, long mtime) {
    StringBuilder records = new StringBuilder();
    String headerName = name;
    if (!fitsUstar(headerName)) {
      records.append(record("path", headerName));
    }
    if (!fitsUstar(linkName)) {
      records.append(record("linkpath", linkName));
    }
    if (size > Tar.MAX_OCTAL_11) {
      records.append(record("size", Long.toString(size)));
    }
    if (owner.uid() > Tar.MAX_OCTAL_7) {
      records.append(record("uid", Integer.toString(owner.uid())));
    }
    if (owner.gid() > Tar.MAX_OCTAL_7) {
      records.append(record("gid", Integer.toString(owner.gid())));
    }
    if (mtime < 0 || mtime > Tar.MAX_OCTAL_11) {
      records.append(record("mtime", Long.toString(mtime)));
    }
    return records.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static boolean fitsUstar(String text) {
    return text.length() <= Tar.NAME_FIELD && text.chars().allMatch(c -> c > 0 && c < 0x80);
  }

  /** One pax record, {@code "<length> <key>=<value>\n"}, whose length counts its own digits. */
  static String record(String key, String value) {
    int body = key.getBytes(StandardCharsets.UTF_8).length + value.getBytes(StandardCharsets.UTF_8).length + 3;
    int length = body + Integer.toString(body).length();
    if (Integer.toString(length).length() != Integer.toString(body).length()) {
      length = body + Integer.toString(length).length();
    }
    return length + " " + key + "=" + value + "\n";
  }

  /** {@code text} as a ustar field holds it where pax carries the real value: ASCII, cut to the field. */
  private static String asciiField(String text) {
    StringBuilder ascii = new StringBuilder();
    for (int i = 0; i < text.length() && ascii.length() < Tar.NAME_FIELD; i++) {
      char c = text.charAt(i);
      ascii.append(c > 0 && c < 0x80 ? c : '_');
    }
    return ascii.toString();
  }

  private static void text(byte[] block, int offset, int length, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(bytes, 0, block, offset, Math.min(bytes.length, length));
  }

  private static void octal(byte[] block, int offset, int length, long value) {
    String digits = Long.toOctalString(value);
    String padded = "0".repeat(length - 1 - digits.length()) + digits;
    text(block, offset, length - 1, padded);
    block[offset + length - 1] = 0;
  }

  private void pad(long size) throws IOException {
    int padding = (int) (Tar.padded(size) - size);
    if (padding > 0) {
      write(new byte[padding], 0, padding);
    }
  }

  private void write(byte[] data, int offset, int length) throws IOException {
    out.write(data, offset, length);
    digest.update(data, offset, length);
    bytes += length;
  }
}
