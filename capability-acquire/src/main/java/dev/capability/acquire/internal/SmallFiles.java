package dev.capability.acquire.internal;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import java.io.IOException;
import java.io.InputStream;

/** Reads a side file (checksum, signature, provenance) into memory under a limit. */
final class SmallFiles {
  private SmallFiles() {}

  static byte[] read(InputStream in, int maxBytes, String what) {
    try (in) {
      byte[] bytes = in.readNBytes(maxBytes + 1);
      if (bytes.length > maxBytes) {
        throw new AcquisitionRefusedException(
            AcquisitionCodes.DOWNLOAD_TOO_LARGE, what + " is larger than the limit of " + maxBytes + " bytes");
      }
      return bytes;
    } catch (IOException e) {
      throw new AcquisitionRefusedException(AcquisitionCodes.SOURCE_UNAVAILABLE, "cannot read " + what + ": " + e.getMessage(), e);
    }
  }
}
