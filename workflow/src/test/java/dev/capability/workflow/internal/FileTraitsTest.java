package dev.capability.workflow.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Paths and globs are reduced to the words of fixed tables; a glob that could be anything says so. */
class FileTraitsTest {
  private static FileTraits.Traits of(String... pathsOrGlobs) {
    return FileTraits.of(List.of(pathsOrGlobs));
  }

  @Test
  void readsLanguageFromTheExtensionAndRoleFromWellKnownDirectoriesAndNames() {
    assertThat(of("src/main/java/Calc.java")).isEqualTo(new FileTraits.Traits(Set.of("java"), Set.of("source")));
    assertThat(of("src/test/java/CalcTest.java")).isEqualTo(new FileTraits.Traits(Set.of("java"), Set.of("test")));
    assertThat(of("pkg/calc_test.go")).isEqualTo(new FileTraits.Traits(Set.of("go"), Set.of("test")));
    assertThat(of("pom.xml")).isEqualTo(new FileTraits.Traits(Set.of("xml"), Set.of("build")));
    assertThat(of("docs/**/*.md")).isEqualTo(new FileTraits.Traits(Set.of("markdown"), Set.of("docs")));
    assertThat(of(".github/workflows/ci.yml")).isEqualTo(new FileTraits.Traits(Set.of("yaml"), Set.of("ci")));
    assertThat(of("src/main/resources/app.properties")).isEqualTo(new FileTraits.Traits(Set.of("properties"), Set.of("config")));
    assertThat(of("latest.py")).isEqualTo(new FileTraits.Traits(Set.of("python"), Set.of("source")));
  }

  @Test
  void aGlobThatCouldHoldAnyLanguageOrRoleStandsForAny() {
    assertThat(of("src/main/**", "target/**")).isEqualTo(new FileTraits.Traits(Set.of(), Set.of("output", "source")));
    assertThat(of("**")).isEqualTo(new FileTraits.Traits(Set.of(), Set.of()));
    assertThat(of("web/*.{ts,tsx}").languages()).isEmpty();
    assertThat(of("src/**/*.java", "README")).isEqualTo(new FileTraits.Traits(Set.of(), Set.of()));
  }

  @Test
  void unknownExtensionsAndNamesYieldNoWordOfThePath() {
    FileTraits.Traits traits = of("secret-project/zebra.canary");
    assertThat(traits.languages()).isEmpty();
    assertThat(traits.roles()).isEmpty();
  }
}
