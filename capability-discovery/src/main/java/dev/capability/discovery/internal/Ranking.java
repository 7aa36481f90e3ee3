package dev.capability.discovery.internal;

import dev.capability.discovery.FoundEntry;
import dev.capability.discovery.IndexSearch;
import dev.capability.discovery.SearchHit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** The ranking documented on {@link IndexSearch}. */
public final class Ranking {
  private static final Comparator<SearchHit> ORDER =
      Comparator.comparingInt((SearchHit hit) -> -hit.score())
          .thenComparingInt(hit -> hit.found().depth())
          .thenComparing(hit -> hit.found().entry().name())
          .thenComparing(hit -> hit.found().entry().coordinates().toString())
          .thenComparing(hit -> hit.found().index().toString());

  private Ranking() {}

  public static List<SearchHit> rank(List<FoundEntry> entries, String query) {
    List<String> terms =
        Arrays.stream(query.toLowerCase(Locale.ROOT).trim().split("\\s+")).filter(term -> !term.isEmpty()).toList();
    if (terms.isEmpty()) {
      throw new IllegalArgumentException("the query is blank");
    }
    if (terms.size() > IndexSearch.MAX_TERMS) {
      throw new IllegalArgumentException("the query has " + terms.size() + " terms; the limit is " + IndexSearch.MAX_TERMS);
    }
    List<SearchHit> hits = new ArrayList<>();
    for (FoundEntry found : entries) {
      int score = score(found, terms);
      if (score > 0) {
        hits.add(new SearchHit(found, score));
      }
    }
    hits.sort(ORDER);
    return List.copyOf(hits);
  }

  /** The entry's score, or 0 when some term matches nothing. */
  private static int score(FoundEntry found, List<String> terms) {
    String name = found.entry().name();
    String artifact = found.entry().coordinates().artifact().toLowerCase(Locale.ROOT);
    String description = found.entry().description().toLowerCase(Locale.ROOT);
    int total = 0;
    for (String term : terms) {
      int score = 0;
      if (name.equals(term)) {
        score += 8;
      } else if (name.contains(term)) {
        score += 4;
      }
      if (artifact.contains(term)) {
        score += 2;
      }
      if (description.contains(term)) {
        score += 1;
      }
      if (score == 0) {
        return 0;
      }
      total += score;
    }
    return total;
  }
}
