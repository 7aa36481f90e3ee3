package dev.capability.kernel.core.internal.authority;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The write scope of one layer: a path is inside it when at least one of its patterns matches. */
public final class WriteScope {
  private final List<GlobPattern> patterns;

  private WriteScope(List<GlobPattern> patterns) {
    this.patterns = List.copyOf(patterns);
  }

  /**
   * Compiles {@code patterns}, each as a {@link GlobPattern#writeScope write-scope glob}.
   *
   * @throws dev.capability.kernel.api.authority.AuthorityException {@code SCOPE_PATTERN_INVALID}
   *     for the first bad pattern
   */
  public static WriteScope of(List<String> patterns) {
    Objects.requireNonNull(patterns, "patterns");
    List<GlobPattern> compiled = new ArrayList<>();
    for (String pattern : patterns) {
      compiled.add(GlobPattern.writeScope(Objects.requireNonNull(pattern, "pattern")));
    }
    return new WriteScope(compiled);
  }

  public List<GlobPattern> patterns() {
    return patterns;
  }

  /** The first pattern that matches {@code path}, if any. */
  public Optional<GlobPattern> match(String path) {
    for (GlobPattern pattern : patterns) {
      if (pattern.matches(path)) {
        return Optional.of(pattern);
      }
    }
    return Optional.empty();
  }

  /**
   * A path this scope allows and {@code outer} does not, with the pattern that allows it; empty
   * when this scope lies wholly inside {@code outer}.
   */
  public Optional<Widening> wideningOf(WriteScope outer) {
    for (GlobPattern pattern : patterns) {
      Optional<String> path = counterexample(pattern, outer);
      if (path.isPresent()) {
        return Optional.of(new Widening(pattern, path.get()));
      }
    }
    return Optional.empty();
  }

  /**
   * A path {@code pattern} matches and {@code outer} does not. Cheap cases first: a pattern
   * without wildcards is one path, and an outer pattern whose literal start diverges from this
   * one's can match none of its paths, so it is left out of the search.
   */
  private static Optional<String> counterexample(GlobPattern pattern, WriteScope outer) {
    List<String> prefix = pattern.literalPrefix();
    if (prefix.size() == pattern.segments().size()) {
      String path = String.join("/", prefix);
      return outer.match(path).isPresent() ? Optional.empty() : Optional.of(path);
    }
    List<GlobPattern> relevant = new ArrayList<>();
    for (GlobPattern candidate : outer.patterns) {
      if (candidate.source().equals(pattern.source())) {
        return Optional.empty();
      }
      if (compatible(prefix, candidate.literalPrefix())) {
        relevant.add(candidate);
      }
    }
    return GlobContainment.counterexample(pattern, relevant);
  }

  /** Whether one literal start is a segment-wise prefix of the other, so that some path could begin with both. */
  private static boolean compatible(List<String> a, List<String> b) {
    int shared = Math.min(a.size(), b.size());
    return a.subList(0, shared).equals(b.subList(0, shared));
  }

  /** The repository-relative directories (or files) every match lies at or under; {@code ""} is the root. */
  List<String> roots() {
    return patterns.stream().map(pattern -> String.join("/", pattern.literalPrefix())).distinct().toList();
  }

  /**
   * Whether a pattern without wildcards is exactly {@code path}: then {@code path} itself is what
   * may be written, and it may as well be a file as a directory.
   */
  boolean namesExactly(String path) {
    return patterns.stream().anyMatch(pattern -> pattern.literalPrefix().size() == pattern.segments().size()
        && String.join("/", pattern.literalPrefix()).equals(path));
  }

  /**
   * A pattern of one scope that reaches outside another, and a path that shows it.
   *
   * @param pattern the pattern that allows {@code path}
   * @param path the shortest such path, with readable characters where the patterns allow them
   */
  public record Widening(GlobPattern pattern, String path) {
    public Widening {
      Objects.requireNonNull(pattern, "pattern");
      Objects.requireNonNull(path, "path");
    }
  }

  @Override
  public String toString() {
    return patterns.toString();
  }
}
