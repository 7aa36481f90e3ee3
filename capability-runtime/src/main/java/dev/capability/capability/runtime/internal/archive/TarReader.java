package dev.capability.capability.runtime.internal.archive;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import dev.capability.capability.runtime.internal.effects.ScopeGrammar;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/** Reads a gzip-compressed tar archive from memory; links, devices and sparse files are refused. */
final class TarReader {
  private TarReader() {}

  static PackageContents read(byte[] tgz, ArchiveLimits limits) {
    long tarOverhead = (limits.maxEntries() + 4L) * 2048;
    byte[] tar = Gunzip.gunzip(tgz, limits.maxTotalBytes() + tarOverhead, limits.maxRatio());
    PackageContents.Builder builder = new PackageContents.Builder(limits, true);
    PositionedInput source = new PositionedInput(tar);
    // A 512-byte block size makes the reader stop right after the end-of-archive records.
    try (TarArchiveInputStream in = new TarArchiveInputStream(source, 512)) {
      TarArchiveEntry entry;
      while ((entry = in.getNextEntry()) != null) {
        String name = entry.getName();
        String where = "entry '" + ScopeGrammar.printable(name) + "'";
        if (entry.isSymbolicLink() || entry.isLink()) {
          throw new PackageRefusedException(CapabilityCodes.ARCHIVE_SYMLINK, where + " is a symbolic or hard link");
        }
        if (entry.isCharacterDevice() || entry.isBlockDevice() || entry.isFIFO()) {
          throw new PackageRefusedException(CapabilityCodes.ARCHIVE_SPECIAL_FILE, where + " is a device or FIFO");
        }
        if (entry.isSparse() || entry.isGNUSparse() || entry.isStarSparse() || entry.isPaxGNUSparse()) {
          throw new PackageRefusedException(CapabilityCodes.ARCHIVE_UNSUPPORTED, where + " is a sparse file");
        }
        if (entry.isDirectory()) {
          builder.directory(name.endsWith("/") ? name : name + "/");
        } else if (entry.isFile()) {
          if (entry.getSize() > limits.maxEntryBytes()) {
            throw new PackageRefusedException(CapabilityCodes.ARCHIVE_BOMB, where + " declares more than " + limits.maxEntryBytes() + " bytes");
          }
          byte[] bytes = in.readNBytes((int) entry.getSize());
          if (bytes.length != entry.getSize()) {
            throw new PackageRefusedException(CapabilityCodes.ARCHIVE_CORRUPT, where + " is truncated");
          }
          builder.file(name, bytes);
        } else {
          throw new PackageRefusedException(CapabilityCodes.ARCHIVE_UNSUPPORTED, where + " has an unsupported tar entry type");
        }
      }
      checkTrailer(tar, source.position());
    } catch (IOException | IllegalArgumentException e) {
      throw new PackageRefusedException(CapabilityCodes.ARCHIVE_CORRUPT, "malformed tar archive: " + e.getMessage(), e);
    }
    return builder.build();
  }

  private static final class PositionedInput extends ByteArrayInputStream {
    PositionedInput(byte[] bytes) {
      super(bytes);
    }

    synchronized long position() {
      return pos;
    }
  }

  /** After the end-of-archive blocks only zero padding may follow; anything else is hidden content. */
  private static void checkTrailer(byte[] tar, long read) {
    for (long i = Math.max(0, read); i < tar.length; i++) {
      if (tar[(int) i] != 0) {
        throw new PackageRefusedException(
            CapabilityCodes.ARCHIVE_PREPENDED_DATA, "bytes follow the end of the tar archive");
      }
    }
  }
}
