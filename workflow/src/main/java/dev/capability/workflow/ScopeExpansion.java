package dev.capability.workflow;

import java.util.List;
import java.util.Objects;

/**
 * A justified widening of a correction's radius, inside the phase's authority.
 *
 * @param assumptionId the assumption whose correction it widens
 * @param paths the repository-relative paths or write-scope globs added
 * @param justification why, as stored
 * @param sequence the store's sequence number of the expansion
 */
public record ScopeExpansion(String assumptionId, List<String> paths, String justification, long sequence) {
  public ScopeExpansion {
    Objects.requireNonNull(assumptionId, "assumptionId");
    paths = List.copyOf(paths);
    Objects.requireNonNull(justification, "justification");
  }
}
