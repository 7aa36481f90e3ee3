package dev.capability.acquire.internal;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;

/** Checks a source-relative path before any source resolves it, whoever built the path. */
final class RelativePaths {
  private RelativePaths() {}

  static String check(String path) {
    if (path == null || path.isEmpty() || path.startsWith("/") || path.endsWith("/")) {
      throw refused(path);
    }
    for (String segment : path.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        throw refused(path);
      }
      for (int i = 0; i < segment.length(); i++) {
        char c = segment.charAt(i);
        if (!(Character.isLetterOrDigit(c) && c < 0x80) && "._-+".indexOf(c) < 0) {
          throw refused(path);
        }
      }
    }
    return path;
  }

  private static AcquisitionRefusedException refused(String path) {
    return new AcquisitionRefusedException(
        AcquisitionCodes.SOURCE_INVALID, "'" + path + "' is not a plain relative path inside a repository");
  }
}
