package dev.capability.kernel.core.internal.authority;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.authority.AuthorityException;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class GlobProperties {

  @Property
  void aPatternWithoutWildcardsMatchesExactlyItself(@ForAll("paths") String literal, @ForAll("paths") String other) {
    GlobPattern glob = GlobPattern.writeScope(literal);
    assertThat(String.join("/", glob.literalPrefix())).isEqualTo(literal);
    assertThat(glob.matches(literal)).isTrue();
    assertThat(glob.matches(other)).isEqualTo(other.equals(literal));
  }

  @Property
  void globstarMatchesEveryVisiblePathUnderItsPrefix(@ForAll("visiblePaths") String prefix, @ForAll("visiblePaths") String below) {
    GlobPattern glob = GlobPattern.writeScope(prefix + "/**");
    assertThat(glob.matches(prefix)).isTrue();
    assertThat(glob.matches(prefix + "/" + below)).isTrue();
    assertThat(GlobPattern.protectedPath(prefix + "/**").matches(prefix + "/" + below)).isTrue();
  }

  @Property
  void globstarNeverReachesOutsideItsPrefix(@ForAll("visiblePaths") String prefix, @ForAll("paths") String path) {
    GlobPattern glob = GlobPattern.writeScope(prefix + "/**");
    boolean under = path.equals(prefix) || path.startsWith(prefix + "/");
    if (!under) {
      assertThat(glob.matches(path)).isFalse();
    }
  }

  @Property
  void protectedPatternsMatchAtLeastWhatScopePatternsMatch(@ForAll("patterns") String pattern, @ForAll("paths") String path) {
    GlobPattern scope = compiles(pattern, false);
    if (scope.matches(path)) {
      assertThat(GlobPattern.protectedPath(pattern).matches(path)).isTrue();
    }
  }

  @Property(tries = 2000)
  void theAutomatonAcceptsExactlyWhatTheMatcherMatches(
      @ForAll("patterns") String pattern, @ForAll("paths") String path, @ForAll boolean protectedPath) {
    GlobPattern glob = compiles(pattern, protectedPath);
    assertThat(GlobAutomaton.of(glob).accepts(path)).as("%s on %s", pattern, path).isEqualTo(glob.matches(path));
  }

  @Property(tries = 1000)
  void theShortestMatchingPrefixIsTheFirstAncestorOrSelfThatMatches(
      @ForAll("patterns") String pattern, @ForAll("paths") String path, @ForAll boolean protectedPath) {
    GlobPattern glob = compiles(pattern, protectedPath);
    int expected = -1;
    for (int end = path.indexOf('/'); expected < 0; end = path.indexOf('/', end + 1)) {
      int candidate = end < 0 ? path.length() : end;
      if (glob.matches(path.substring(0, candidate))) {
        expected = candidate;
      }
      if (end < 0) {
        break;
      }
    }
    assertThat(glob.shortestMatchingPrefix(path)).as("%s on %s", pattern, path).isEqualTo(expected);
  }

  @Property(tries = 500)
  void aCounterexampleIsMatchedByTheInnerPatternAndByNoOuterOne(
      @ForAll("patterns") String inner, @ForAll("patterns") String outer1, @ForAll("patterns") String outer2,
      @ForAll("paths") String probe) {
    GlobPattern in = compiles(inner, false);
    List<GlobPattern> out = List.of(compiles(outer1, false), compiles(outer2, false));
    Optional<String> counterexample = GlobContainment.counterexample(in, out);
    if (counterexample.isPresent()) {
      String path = counterexample.get();
      assertThat(RepositoryPaths.problem(path)).isEmpty();
      assertThat(in.matches(path)).as("%s matches %s", inner, path).isTrue();
      assertThat(out).noneMatch(glob -> glob.matches(path));
    } else if (in.matches(probe)) {
      assertThat(out).as("%s is inside %s, so %s is matched by one", inner, out, probe).anyMatch(glob -> glob.matches(probe));
    }
  }

  @Property(tries = 500)
  void theShortcutsOfTheWideningCheckAgreeWithTheFullSearch(
      @ForAll("patterns") String inner, @ForAll("patterns") String outer1, @ForAll("patterns") String outer2) {
    GlobPattern in = compiles(inner, false);
    List<GlobPattern> out = List.of(compiles(outer1, false), compiles(outer2, false));

    Optional<WriteScope.Widening> widening = WriteScope.of(List.of(inner)).wideningOf(WriteScope.of(List.of(outer1, outer2)));

    assertThat(widening.isPresent()).isEqualTo(GlobContainment.counterexample(in, out).isPresent());
    widening.ifPresent(found -> {
      assertThat(in.matches(found.path())).isTrue();
      assertThat(out).noneMatch(glob -> glob.matches(found.path()));
    });
  }

  @Property(tries = 300)
  void everyPatternIsInsideItselfAndAPatternWithoutHiddenNamesIsInsideGlobstar(@ForAll("patterns") String pattern) {
    GlobPattern glob = compiles(pattern, false);
    assertThat(GlobContainment.counterexample(glob, List.of(glob))).isEmpty();
    Optional<String> outsideGlobstar = GlobContainment.counterexample(glob, List.of(GlobPattern.writeScope("**")));
    if (pattern.startsWith(".") || pattern.contains("/.")) {
      assertThat(outsideGlobstar).hasValueSatisfying(path -> assertThat(path.startsWith(".") || path.contains("/.")).isTrue());
    } else {
      assertThat(outsideGlobstar).isEmpty();
    }
  }

  private static GlobPattern compiles(String pattern, boolean protectedPath) {
    try {
      return protectedPath ? GlobPattern.protectedPath(pattern) : GlobPattern.writeScope(pattern);
    } catch (AuthorityException e) {
      Assume.that(false);
      throw e;
    }
  }

  @Provide
  Arbitrary<String> patterns() {
    Arbitrary<String> token = Arbitraries.of("a", "b", ".", "*", "?", "[ab]", "[!a]", "[a-c]", "c.");
    Arbitrary<String> segment = Arbitraries.oneOf(
        token.list().ofMinSize(1).ofMaxSize(3).map(tokens -> String.join("", tokens)),
        Arbitraries.just("**"));
    return segment.list().ofMinSize(1).ofMaxSize(4).map(segments -> String.join("/", segments));
  }

  @Provide
  Arbitrary<String> paths() {
    return segments(Arbitraries.of('a', 'b', 'c', '.'));
  }

  @Provide
  Arbitrary<String> visiblePaths() {
    return segments(Arbitraries.of('a', 'b', 'c', '.')).filter(path -> !path.startsWith(".") && !path.contains("/."));
  }

  private static Arbitrary<String> segments(Arbitrary<Character> characters) {
    Arbitrary<String> segment = characters.list().ofMinSize(1).ofMaxSize(3)
        .map(chars -> chars.stream().map(String::valueOf).reduce("", String::concat))
        .filter(text -> !text.equals(".") && !text.equals(".."));
    return segment.list().ofMinSize(1).ofMaxSize(4).map(segments -> String.join("/", segments));
  }
}
