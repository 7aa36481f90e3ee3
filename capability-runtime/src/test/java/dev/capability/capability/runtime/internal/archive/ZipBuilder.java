package dev.capability.capability.runtime.internal.archive;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/** Writes zip archives byte by byte, with knobs to make every structure lie. */
final class ZipBuilder {
  static final class Entry {
    String name;
    byte[] rawName;
    byte[] data;
    int method = 0;
    int flags = 0x800;
    int unixMode = 0100644;
    String centralName;
    long declaredSize = -1;
    int commentLength = 0;

    Entry(String name, byte[] data) {
      this.name = name;
      this.data = data;
      if (name.endsWith("/")) {
        unixMode = 0040755;
      }
    }

    Entry deflated() {
      method = 8;
      return this;
    }
  }

  final List<Entry> entries = new ArrayList<>();
  byte[] prefix = new byte[0];
  byte[] betweenEntries = new byte[0];
  byte[] afterEntries = new byte[0];
  byte[] trailer = new byte[0];
  boolean secondCentralPointsAtFirstLocal;

  static byte[] single(String name, String text) {
    ZipBuilder zip = new ZipBuilder();
    zip.add(name, text);
    return zip.build();
  }

  Entry add(String name, String text) {
    return add(name, text.getBytes(StandardCharsets.UTF_8));
  }

  Entry add(String name, byte[] data) {
    Entry entry = new Entry(name, data);
    entries.add(entry);
    return entry;
  }

  byte[] build() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(prefix);
    List<Long> offsets = new ArrayList<>();
    List<byte[]> compressed = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      Entry e = entries.get(i);
      if (i > 0) {
        out.writeBytes(betweenEntries);
      }
      byte[] body = e.method == 8 ? deflate(e.data) : e.data;
      compressed.add(body);
      offsets.add((long) out.size());
      byte[] name = e.rawName != null ? e.rawName : e.name.getBytes(StandardCharsets.UTF_8);
      u32(out, 0x04034b50);
      u16(out, 20);
      u16(out, e.flags);
      u16(out, e.method);
      u16(out, 0);
      u16(out, 0x21);
      u32(out, crc(e.data));
      u32(out, body.length);
      u32(out, e.declaredSize >= 0 ? e.declaredSize : e.data.length);
      u16(out, name.length);
      u16(out, 0);
      out.writeBytes(name);
      out.writeBytes(body);
    }
    out.writeBytes(afterEntries);
    long central = out.size();
    for (int i = 0; i < entries.size(); i++) {
      Entry e = entries.get(i);
      byte[] name =
          e.centralName != null
              ? e.centralName.getBytes(StandardCharsets.UTF_8)
              : e.rawName != null ? e.rawName : e.name.getBytes(StandardCharsets.UTF_8);
      u32(out, 0x02014b50);
      u16(out, (3 << 8) | 20);
      u16(out, 20);
      u16(out, e.flags);
      u16(out, e.method);
      u16(out, 0);
      u16(out, 0x21);
      u32(out, crc(e.data));
      u32(out, compressed.get(i).length);
      u32(out, e.declaredSize >= 0 ? e.declaredSize : e.data.length);
      u16(out, name.length);
      u16(out, 0);
      u16(out, e.commentLength);
      u16(out, 0);
      u16(out, 0);
      u32(out, (long) e.unixMode << 16);
      u32(out, secondCentralPointsAtFirstLocal && i == 1 ? offsets.get(0) : offsets.get(i));
      out.writeBytes(name);
      out.writeBytes(new byte[e.commentLength]);
    }
    long centralSize = out.size() - central;
    u32(out, 0x06054b50);
    u16(out, 0);
    u16(out, 0);
    u16(out, entries.size());
    u16(out, entries.size());
    u32(out, centralSize);
    u32(out, central);
    u16(out, 0);
    out.writeBytes(trailer);
    return out.toByteArray();
  }

  static byte[] deflate(byte[] data) {
    Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
    deflater.setInput(data);
    deflater.finish();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    while (!deflater.finished()) {
      out.write(buffer, 0, deflater.deflate(buffer));
    }
    deflater.end();
    return out.toByteArray();
  }

  private static long crc(byte[] data) {
    CRC32 crc = new CRC32();
    crc.update(data);
    return crc.getValue();
  }

  private static void u16(ByteArrayOutputStream out, int value) {
    out.write(value & 0xff);
    out.write((value >> 8) & 0xff);
  }

  private static void u32(ByteArrayOutputStream out, long value) {
    u16(out, (int) (value & 0xffff));
    u16(out, (int) ((value >> 16) & 0xffff));
  }
}
