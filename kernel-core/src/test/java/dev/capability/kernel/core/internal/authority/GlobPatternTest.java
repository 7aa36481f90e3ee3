package dev.capability.kernel.core.internal.authority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.authority.AuthorityException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GlobPatternTest {

  @ParameterizedTest(name = "write scope {0} matches {1}: {2}")
  @CsvSource(delimiter = '|', value = {
      // literals match exactly themselves
      "pom.xml            | pom.xml                 | true",
      "pom.xml            | pom.xml.bak             | false",
      "pom.xml            | sub/pom.xml             | false",
      "src/Main.java      | src/Main.java           | true",
      "src/Main.java      | src/main.java           | false",
      // * stays within one segment
      "*.java             | Main.java               | true",
      "*.java             | src/Main.java           | false",
      "src/*              | src/a                   | true",
      "src/*              | src/a/b                 | false",
      "src/*              | src                     | false",
      "src/*.txt          | src/.txt                | false",
      "a*b*c              | aXbYc                   | true",
      "a*b*c              | abc                     | true",
      "a*b*c              | acb                     | false",
      "a*b*c              | aXbYcZ                  | false",
      // ? is exactly one code point
      "?.md               | a.md                    | true",
      "?.md               | ab.md                   | false",
      "?.md               | é.md                    | true",
      "?.md               | \uD83D\uDE00.md         | true",
      // classes
      "[abc].txt          | b.txt                   | true",
      "[abc].txt          | d.txt                   | false",
      "[a-c]x             | bx                      | true",
      "[!a-c]x            | dx                      | true",
      "[!a-c]x            | bx                      | false",
      "[^a-c]x            | bx                      | false",
      "[]]x               | ]x                      | true",
      "[a-]x              | -x                      | true",
      "[*]                | *                       | true",
      "[*]                | a                       | false",
      "x]                 | x]                      | true",
      // ** matches zero or more whole segments
      "**                 | a                       | true",
      "**                 | a/b/c                   | true",
      "target/**          | target                  | true",
      "target/**          | target/classes/A.class  | true",
      "target/**          | targets/x               | false",
      "**/*.class         | A.class                 | true",
      "**/*.class         | a/b/A.class             | true",
      "src/**/test/*.java | src/test/A.java         | true",
      "src/**/test/*.java | src/a/b/test/A.java     | true",
      "src/**/test/*.java | src/a/b/test/x/A.java   | false",
      "a/**/**/b          | a/b                     | true",
      // hidden names need a literal dot
      "*                  | .env                    | false",
      "?env               | .env                    | false",
      "[.]env             | .env                    | false",
      "[!a]env            | .env                    | false",
      "**                 | .github/x               | false",
      "**                 | a/.hidden/x             | false",
      "src/**             | src/.cache/x            | false",
      "**/x               | .a/x                    | false",
      ".*                 | .env                    | true",
      ".github/**         | .github/workflows/ci.yml | true",
      "src/.*             | src/.eslintrc           | true",
      "*.*                | a.b                     | true",
      // strings that are not valid paths match nothing
      "**                 | a//b                    | false",
      "**                 | a/./b                   | false",
      "**                 | a/../b                  | false",
      "*                  | /etc                    | false",
      "a/**               | a/                      | false",
  })
  void writeScopeSemantics(String pattern, String path, boolean expected) {
    GlobPattern glob = GlobPattern.writeScope(pattern);
    assertThat(glob.matches(path)).isEqualTo(expected);
    assertThat(GlobAutomaton.of(glob).accepts(path) && RepositoryPaths.problem(path).isEmpty()).isEqualTo(expected);
  }

  @ParameterizedTest(name = "protected path {0} matches {1}: {2}")
  @CsvSource(delimiter = '|', value = {
      "**/.envrc          | .envrc                  | true",
      "**/.envrc          | .config/x/.envrc        | true",
      "**/.git            | a/.hidden/.git          | true",
      "*                  | .bashrc                 | true",
      "?bashrc            | .bashrc                 | true",
      ".github/workflows  | .github/workflows       | true",
      ".github/workflows  | .github/workflow        | false",
  })
  void protectedPathWildcardsMatchHiddenNames(String pattern, String path, boolean expected) {
    GlobPattern glob = GlobPattern.protectedPath(pattern);
    assertThat(glob.matches(path)).isEqualTo(expected);
    assertThat(GlobAutomaton.of(glob).accepts(path)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "refuses {0}")
  @ValueSource(strings = {
      "", "/etc/passwd", "/", "~/x", "~", "!src/**", "src\\*.java", "{a,b}/**", "src/{a}", "a/*(b)", "a/?(b)",
      "a/+(b)", "a/@(b)", "a//b", "a/", "./a", "a/./b", "a/../b", "..", "**/..", "a**", "**b/c", "a/b**c",
      "[abc", "a[", "[z-a]", "[[:alpha:]]", "[[=a=]]", "[[.a.]]", "a\u0000b", "a\nb", "a\u202eb", "a\u200bb",
      "\uD800x"})
  void refusesBadPatternsWithTheirCode(String pattern) {
    assertThatThrownBy(() -> GlobPattern.writeScope(pattern))
        .isInstanceOf(AuthorityException.class)
        .satisfies(e -> assertThat(((AuthorityException) e).code()).isEqualTo("SCOPE_PATTERN_INVALID"))
        .hasMessageStartingWith("write scope \"");
  }

  @ParameterizedTest
  @ValueSource(ints = {GlobParser.MAX_SEGMENTS + 1})
  void refusesTooManySegments(int segments) {
    String pattern = "a/".repeat(segments - 1) + "a";
    assertThatThrownBy(() -> GlobPattern.writeScope(pattern)).hasMessageContaining("more than");
    assertThat(GlobPattern.writeScope("a/".repeat(GlobParser.MAX_SEGMENTS - 1) + "a").matches(
        "a/".repeat(GlobParser.MAX_SEGMENTS - 1) + "a")).isTrue();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "src/main/**/*.java | src/main",
      "pom.xml            | pom.xml",
      "**/x               | ''",
      "a/b*/c             | a",
  })
  void literalPrefixStopsAtTheFirstWildcard(String pattern, String prefix) {
    assertThat(String.join("/", GlobPattern.writeScope(pattern).literalPrefix())).isEqualTo(prefix);
  }

  @ParameterizedTest
  @ValueSource(strings = {"a[/]b"})
  void aClassCannotHoldASlash(String pattern) {
    assertThatThrownBy(() -> GlobPattern.writeScope(pattern)).isInstanceOf(AuthorityException.class);
  }
}
