package dev.capability.kernel.api.store;

import java.util.Objects;

/**
 * A correction anti-pattern and how many times it was recorded, across every project of the
 * operator that recorded it.
 *
 * @param entry the anti-pattern
 * @param occurrences how many times it was recorded, at least 1
 */
public record PlaybookPattern(PlaybookEntry entry, long occurrences) {
  public PlaybookPattern {
    Objects.requireNonNull(entry, "entry");
    if (occurrences < 1) {
      throw new IllegalArgumentException("a pattern was recorded at least once, not " + occurrences + " times");
    }
  }
}
