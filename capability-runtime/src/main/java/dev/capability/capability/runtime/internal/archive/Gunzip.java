package dev.capability.capability.runtime.internal.archive;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import java.io.ByteArrayOutputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decompresses exactly one gzip member, bounded while streaming. A second member or any byte after
 * the trailer is hidden content and refused; {@link java.util.zip.GZIPInputStream} would read the
 * first silently and skip garbage.
 */
final class Gunzip {
  private static final int FHCRC = 2;
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;
  private static final int RESERVED = 0xe0;

  private Gunzip() {}

  static byte[] gunzip(byte[] gz, long maxOutput, int maxRatio) {
    if (gz.length < 18 || (gz[0] & 0xff) != 0x1f || (gz[1] & 0xff) != 0x8b || gz[2] != 8) {
      throw corrupt("not a deflate gzip stream");
    }
    int flags = gz[3] & 0xff;
    if ((flags & RESERVED) != 0) {
      throw corrupt("reserved gzip flags are set");
    }
    int at = 10;
    if ((flags & FEXTRA) != 0) {
      at += 2 + ((gz[at] & 0xff) | (gz[at + 1] & 0xff) << 8);
    }
    if ((flags & FNAME) != 0) {
      at = skipZeroTerminated(gz, at);
    }
    if ((flags & FCOMMENT) != 0) {
      at = skipZeroTerminated(gz, at);
    }
    if ((flags & FHCRC) != 0) {
      at += 2;
    }
    if (at >= gz.length) {
      throw corrupt("truncated gzip header");
    }
    Inflater inflater = new Inflater(true);
    try {
      inflater.setInput(gz, at, gz.length - at);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[64 * 1024];
      CRC32 crc = new CRC32();
      while (!inflater.finished()) {
        int n = inflater.inflate(buffer);
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          throw corrupt("the gzip stream ends early");
        }
        crc.update(buffer, 0, n);
        out.write(buffer, 0, n);
        long produced = out.size();
        if (produced > maxOutput) {
          throw new PackageRefusedException(
              CapabilityCodes.ARCHIVE_BOMB, "the gzip stream inflates past " + maxOutput + " bytes");
        }
        if (produced > ArchiveLimits.RATIO_FLOOR && produced > inflater.getBytesRead() * maxRatio) {
          throw new PackageRefusedException(
              CapabilityCodes.ARCHIVE_BOMB, "the gzip stream compresses more than " + maxRatio + ":1");
        }
      }
      int trailer = gz.length - inflater.getRemaining();
      if (inflater.getRemaining() < 8) {
        throw corrupt("the gzip trailer is missing");
      }
      if (inflater.getRemaining() > 8) {
        throw new PackageRefusedException(
            CapabilityCodes.ARCHIVE_PREPENDED_DATA, "bytes follow the gzip member (a second member or appended data)");
      }
      long expectedCrc = le32(gz, trailer);
      long expectedSize = le32(gz, trailer + 4);
      if (expectedCrc != crc.getValue() || expectedSize != (out.size() & 0xffffffffL)) {
        throw corrupt("the gzip trailer does not match the data");
      }
      return out.toByteArray();
    } catch (DataFormatException e) {
      throw corrupt("corrupt deflate data in the gzip stream");
    } finally {
      inflater.end();
    }
  }

  private static int skipZeroTerminated(byte[] gz, int at) {
    while (at < gz.length && gz[at] != 0) {
      at++;
    }
    return at + 1;
  }

  private static long le32(byte[] bytes, int at) {
    return (bytes[at] & 0xffL) | (bytes[at + 1] & 0xffL) << 8 | (bytes[at + 2] & 0xffL) << 16 | (bytes[at + 3] & 0xffL) << 24;
  }

  private static PackageRefusedException corrupt(String why) {
    return new PackageRefusedException(CapabilityCodes.ARCHIVE_CORRUPT, why);
  }
}
