package dev.capability.workspace;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Tar archives built byte by byte, independently of the module's own writer, so that the tests
 * can write what no honest tool writes: any type flag, name, link target, size or pax record.
 */
final class HostileTar {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  HostileTar directory(String name) {
    return header(name, '5', "", 0, 0755);
  }

  HostileTar file(String name, String content) {
    byte[] data = content.getBytes(StandardCharsets.UTF_8);
    header(name, '0', "", data.length, 0644);
    return data(data);
  }

  HostileTar symlink(String name, String target) {
    return header(name, '2', target, 0, 0777);
  }

  HostileTar pax(String records) {
    byte[] data = records.getBytes(StandardCharsets.UTF_8);
    header("PaxHeaders/x", 'x', "", data.length, 0644);
    return data(data);
  }

  /** A pax record whose length counts its own digits. */
  static String record(String key, String value) {
    int body = key.getBytes(StandardCharsets.UTF_8).length + value.getBytes(StandardCharsets.UTF_8).length + 3;
    int length = body + String.valueOf(body).length();
    if (String.valueOf(length).length() != String.valueOf(body).length()) {
      length = body + String.valueOf(length).length();
    }
    return length + " " + key + "=" + value + "\n";
  }

  /** A header with any type flag and declared size; the content, if any, is added with {@link #data}. */
  HostileTar header(String name, char type, String linkName, long size, int mode) {
    byte[] b = new byte[512];
    put(b, 0, 100, name);
    put(b, 100, 8, octal(mode, 7));
    put(b, 108, 8, octal(1000, 7));
    put(b, 116, 8, octal(1000, 7));
    put(b, 124, 12, octal(size, 11));
    put(b, 136, 12, octal(1_700_000_000L, 11));
    b[156] = (byte) type;
    put(b, 157, 100, linkName);
    put(b, 257, 6, "ustar");
    put(b, 263, 2, "00");
    Arrays.fill(b, 148, 156, (byte) ' ');
    long sum = 0;
    for (byte x : b) {
      sum += Byte.toUnsignedInt(x);
    }
    put(b, 148, 7, octal(sum, 6));
    b[155] = ' ';
    out.writeBytes(b);
    return this;
  }

  HostileTar data(byte[] data) {
    out.writeBytes(data);
    int padding = (512 - data.length % 512) % 512;
    out.writeBytes(new byte[padding]);
    return this;
  }

  HostileTar raw(byte[] bytes) {
    out.writeBytes(bytes);
    return this;
  }

  /** The archive with its two zero end blocks. */
  byte[] end() {
    out.writeBytes(new byte[1024]);
    return out.toByteArray();
  }

  /** The archive as written so far, without end blocks. */
  byte[] unended() {
    return out.toByteArray();
  }

  private static String octal(long value, int digits) {
    String s = Long.toOctalString(value);
    return "0".repeat(digits - s.length()) + s;
  }

  private static void put(byte[] block, int offset, int length, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    System.arraycopy(bytes, 0, block, offset, Math.min(length, bytes.length));
  }
}
