package dev.capability.discovery;

import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * What a traversal found, whatever stopped it.
 *
 * @param entries every entry of every index read, in breadth-first order
 * @param visited the canonical URLs of the indexes read successfully, in order
 * @param problems what went wrong with single indexes and links
 * @param stopReason {@link DiscoveryCodes#INDEX_COMPLETE} when nothing was left to read, or the
 *     code of the limit that ended the traversal ({@link DiscoveryCodes#INDEX_COUNT_EXCEEDED},
 *     {@link DiscoveryCodes#INDEX_BYTES_EXCEEDED}, {@link DiscoveryCodes#INDEX_TIME_EXCEEDED})
 */
public record DiscoveryResult(List<FoundEntry> entries, List<URI> visited, List<IndexProblem> problems, String stopReason) {
  public DiscoveryResult {
    entries = List.copyOf(entries);
    visited = List.copyOf(visited);
    problems = List.copyOf(problems);
    Objects.requireNonNull(stopReason, "stopReason");
  }

  /** Whether some problem has {@code code}. */
  public boolean hasProblem(String code) {
    return problems.stream().anyMatch(problem -> problem.code().equals(code));
  }
}
