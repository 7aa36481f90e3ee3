package dev.capability.capability.runtime.internal.archive;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/** Reads a package directory, zip/jar or tgz into checked in-memory contents. */
public final class PackageReader {
  private PackageReader() {}

  public static PackageContents read(Path path, ArchiveLimits limits) {
    try {
      if (Files.isDirectory(path)) {
        return DirectoryReader.read(path.toRealPath(), limits);
      }
      if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(path)) {
        throw new PackageRefusedException(CapabilityCodes.PACKAGE_UNREADABLE, path + " is neither a directory nor a file");
      }
      byte[] bytes;
      try (InputStream in = Files.newInputStream(path)) {
        bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limits.maxArchiveBytes() + 1));
      }
      if (bytes.length > limits.maxArchiveBytes()) {
        throw new PackageRefusedException(CapabilityCodes.ARCHIVE_BOMB, path + " is larger than " + limits.maxArchiveBytes() + " bytes");
      }
      return read(bytes, limits, path.toString());
    } catch (IOException e) {
      throw new PackageRefusedException(CapabilityCodes.PACKAGE_UNREADABLE, "cannot read " + path + ": " + e.getMessage(), e);
    }
  }

  /** Reads an archive from memory by its content, never by its file name. */
  public static PackageContents read(byte[] bytes, ArchiveLimits limits, String what) {
    if (bytes.length >= 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b) {
      return TarReader.read(bytes, limits);
    }
    if (ZipReader.looksLikeZip(bytes)) {
      return ZipReader.read(bytes, limits, true);
    }
    throw new PackageRefusedException(CapabilityCodes.ARCHIVE_UNSUPPORTED, what + " is not a directory, zip, jar or tgz");
  }
}
