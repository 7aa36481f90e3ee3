package dev.capability.discovery;

import java.util.Objects;

/**
 * One search result.
 *
 * @param found the entry, its index and federation path
 * @param score the ranking score (see {@link IndexSearch}); higher ranks first
 */
public record SearchHit(FoundEntry found, int score) {
  public SearchHit {
    Objects.requireNonNull(found, "found");
  }
}
