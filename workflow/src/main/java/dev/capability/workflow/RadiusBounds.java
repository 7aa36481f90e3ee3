package dev.capability.workflow;

/**
 * How far a correction radius reaches: at most {@code maxDepth} links from the invalidated
 * assumption, and at most {@code maxFiles} files. Reaching either is reported with the radius,
 * never passed over in silence.
 *
 * @param maxDepth the most links followed from the invalidated assumption, from 0 (its own files only)
 * @param maxFiles the most files in the radius, from 1
 */
public record RadiusBounds(int maxDepth, int maxFiles) {
  /** The defaults: 4 links, 200 files. */
  public static final RadiusBounds DEFAULTS = new RadiusBounds(4, 200);

  public RadiusBounds {
    if (maxDepth < 0 || maxDepth > 64) {
      throw new IllegalArgumentException("maxDepth is from 0 to 64, was " + maxDepth);
    }
    if (maxFiles < 1 || maxFiles > 100_000) {
      throw new IllegalArgumentException("maxFiles is from 1 to 100000, was " + maxFiles);
    }
  }
}
