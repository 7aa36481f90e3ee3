package dev.capability.evaluator;

import java.util.Objects;

/**
 * A candidate to evaluate: a Git ref or commit of the repository, resolved to a commit once, when
 * the evaluation starts.
 *
 * @param name how the report names it; the ref itself unless the configuration gives a name
 * @param ref the branch, tag or commit, as {@code git rev-parse} understands it; never starts with {@code -}
 */
public record Candidate(String name, String ref) {
  public Candidate {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(ref, "ref");
    if (name.isBlank()) {
      throw new IllegalArgumentException("a candidate's name must not be blank");
    }
    if (ref.isEmpty() || ref.startsWith("-")) {
      throw new IllegalArgumentException("a candidate's ref must be non-empty and not start with '-', was '" + ref + "'");
    }
  }
}
