package dev.capability.workspace;

/**
 * The bounds of one shipped workspace.
 *
 * @param maxInputBytes the most bytes the input archive may hold; a larger repository fails the
 *     launch before anything is sent
 * @param maxReturnBytes the most bytes the returned archive may hold, headers and padding included
 * @param maxEntries the most entries (headers) the returned archive may hold
 * @param maxNameBytes the most UTF-8 bytes of one returned entry's name or symbolic link target
 */
public record WorkspaceLimits(long maxInputBytes, long maxReturnBytes, int maxEntries, int maxNameBytes) {
  /** 1 GiB in, 1 GiB back, 100,000 entries, names of up to 4,096 bytes (Linux's {@code PATH_MAX}). */
  public static final WorkspaceLimits DEFAULT = new WorkspaceLimits(1L << 30, 1L << 30, 100_000, 4096);

  public WorkspaceLimits {
    if (maxInputBytes <= 0 || maxReturnBytes <= 0 || maxEntries <= 0 || maxNameBytes <= 0) {
      throw new IllegalArgumentException("workspace limits must be positive, were " + maxInputBytes + ", "
          + maxReturnBytes + ", " + maxEntries + ", " + maxNameBytes);
    }
  }
}
