package dev.capability.discovery;

import dev.capability.discovery.internal.Ranking;
import java.util.List;
import java.util.Objects;

/**
 * Searches the entries of a traversal.
 *
 * <p>The query is split on white space into terms, compared case-insensitively. An entry matches
 * when every term occurs in its name, artifact id or description. Each term scores 8 when it
 * equals the name, otherwise 4 when the name contains it, plus 2 when the artifact id contains it,
 * plus 1 when the description contains it. Hits are ordered by score (highest first), then by
 * federation depth (nearest first), then by name, coordinates and index URL. Claims such as
 * {@code verified} play no part.
 */
public final class IndexSearch {
  /** The most terms a query may have. */
  public static final int MAX_TERMS = 16;

  private IndexSearch() {}

  /**
   * The hits for {@code query}, best first.
   *
   * @throws IllegalArgumentException for a blank query or one with more than {@link #MAX_TERMS} terms
   */
  public static List<SearchHit> search(DiscoveryResult result, String query) {
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(query, "query");
    return Ranking.rank(result.entries(), query);
  }
}
