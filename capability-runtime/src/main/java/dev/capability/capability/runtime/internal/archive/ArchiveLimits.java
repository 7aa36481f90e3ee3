package dev.capability.capability.runtime.internal.archive;

/**
 * Bounds on what a package may hold, enforced while streaming, never from declared sizes alone.
 *
 * @param maxArchiveBytes the largest archive file read
 * @param maxEntries the most entries, directories included
 * @param maxEntryBytes the largest uncompressed entry
 * @param maxTotalBytes the most uncompressed bytes in all
 * @param maxRatio the highest compression ratio of an entry larger than {@link #RATIO_FLOOR}
 */
public record ArchiveLimits(
    long maxArchiveBytes, int maxEntries, long maxEntryBytes, long maxTotalBytes, int maxRatio) {
  /** Entries below this size are never judged by their ratio: tiny files compress very well. */
  public static final long RATIO_FLOOR = 1L << 20;

  public static final ArchiveLimits DEFAULT =
      new ArchiveLimits(256L << 20, 10_000, 64L << 20, 256L << 20, 100);

  public ArchiveLimits {
    if (maxArchiveBytes <= 0 || maxEntries <= 0 || maxEntryBytes <= 0 || maxTotalBytes <= 0 || maxRatio <= 0) {
      throw new IllegalArgumentException("archive limits must be positive");
    }
  }
}
