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
      Optional<String> path = GlobContainment.counterexample(pattern, outer.patterns);
      if (path.isPresent()) {
        return Optional.of(new Widening(pattern, path.get()));
      }
    }
    return Optional.empty();
  }

  /** The repository-relative directories (or files) every match lies at or under; {@code ""} is the root. */
  List<String> roots() {
    return patterns.stream().map(pattern -> String.join("/", pattern.literalPrefix())).distinct().toList();
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
