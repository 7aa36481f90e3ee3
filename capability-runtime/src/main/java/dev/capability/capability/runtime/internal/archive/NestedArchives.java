package dev.capability.capability.runtime.internal.archive;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import java.util.Locale;
import java.util.Set;

/**
 * Refuses archives inside a package, by name or by content, except module jars: those the
 * inspector opens itself with the same strict reader, one level deep.
 */
public final class NestedArchives {
  private static final Set<String> ARCHIVE_SUFFIXES =
      Set.of(".zip", ".tar", ".gz", ".tgz", ".war", ".ear", ".jmod", ".7z", ".rar", ".xz", ".bz2", ".zst");

  private NestedArchives() {}

  static void refuse(String name, byte[] bytes, boolean allowJars) {
    String lower = name.toLowerCase(Locale.ROOT);
    boolean jar = allowJars && lower.endsWith(".jar");
    boolean archiveName = ARCHIVE_SUFFIXES.stream().anyMatch(lower::endsWith);
    boolean zipBytes =
        startsWith(bytes, 'P', 'K') && bytes.length >= 4 && bytes[2] < 9 && bytes[3] < 9 && bytes[2] > 0;
    boolean gzipBytes = startsWith(bytes, 0x1f, 0x8b);
    if (archiveName || gzipBytes || (zipBytes && !jar) || (!allowJars && lower.endsWith(".jar"))) {
      throw new PackageRefusedException(
          CapabilityCodes.ARCHIVE_NESTED, "entry '" + name + "' is a nested archive; only module jars may be archives");
    }
  }

  /** Whether the entry is a jar the inspector may open as a module. */
  public static boolean isJar(String name) {
    return name.toLowerCase(Locale.ROOT).endsWith(".jar");
  }

  private static boolean startsWith(byte[] bytes, int first, int second) {
    return bytes.length >= 2 && (bytes[0] & 0xff) == first && (bytes[1] & 0xff) == second;
  }
}
