package dev.capability.acquire.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PomScmTest {

  @ParameterizedTest
  @CsvSource({
      "https://github.com/example/hello, github.com/example/hello",
      "https://GitHub.COM/example/hello/, github.com/example/hello",
      "http://github.com/example/hello.git, github.com/example/hello",
      "git+https://github.com/example/hello.git/, github.com/example/hello",
      "scm:git:https://github.com/example/hello.git, github.com/example/hello",
      "scm:git:git://github.com/example/hello.git, github.com/example/hello",
      "scm:git:ssh://git@github.com:22/example/hello.git, github.com/example/hello",
      "scm:git:git@github.com:example/hello.git, github.com/example/hello",
      "scm|git|https://github.com/example/hello, github.com/example/hello",
      "scm:svn:https://svn.example.org/repos/hello/trunk, svn.example.org/repos/hello/trunk",
      "https://github.com//example/hello?tab=readme#top, github.com/example/hello",
      "github.com/example/hello, github.com/example/hello",
      "https://github.com/Example/Hello, github.com/Example/Hello",
  })
  void namesTheHostAndPathWhateverTheSpelling(String location, String expected) {
    assertThat(PomScm.hostAndPath(location)).contains(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"scm:git:file:///srv/git/hello", "not a location", "https:///example/hello"})
  void aLocationWithoutAHostNamesNothing(String location) {
    assertThat(PomScm.hostAndPath(location)).isEmpty();
  }

  @Test
  void aPlaceInsideTheRepositoryIsTheSameRepositoryButASiblingIsNot() {
    assertThat(PomScm.sameRepository("https://github.com/example/hello/tree/main/module", "https://github.com/example/hello")).isTrue();
    assertThat(PomScm.sameRepository("https://github.com/example/hello-fork", "https://github.com/example/hello")).isFalse();
    assertThat(PomScm.sameRepository("https://github.com/example", "https://github.com/example/hello")).isFalse();
    assertThat(PomScm.sameRepository("scm:git:file:///srv/git/hello", "https://github.com/example/hello")).isFalse();
  }

  @Test
  void readsOnlyTheProjectsOwnScmInDocumentOrder() {
    byte[] pom = """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <build><plugins><plugin><scm><url>https://elsewhere.example/x</url></scm></plugin></plugins></build>
          <scm>
            <developerConnection>scm:git:git@github.com:example/hello.git</developerConnection>
            <url> https://github.com/example/hello </url>
            <connection></connection>
            <tag>v1</tag>
          </scm>
        </project>
        """.getBytes(StandardCharsets.UTF_8);

    assertThat(PomScm.read(pom)).containsExactly(
        new PomScm.Declared("developerConnection", "scm:git:git@github.com:example/hello.git"),
        new PomScm.Declared("url", "https://github.com/example/hello"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "<project><scm><url>https://github.com/&name;</url></scm></project> | the entity 'name'",
      "<project><scm><url>https://github.com/<b/>x</url></scm></project> | holds the element 'b'",
      "<project><scm><url>https://github.com/x</scm></project> | cannot be read as XML",
      "<pom><scm><url>https://github.com/x</url></scm></pom> | not a POM's 'project'",
  })
  void refusesWhatIsNotPlainTextInAPom(String document, String reason) {
    assertThatThrownBy(() -> PomScm.read(document.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(PomScm.UnreadableException.class)
        .hasMessageContaining(reason);
  }

  @Test
  void theFiveXmlEntitiesAndCdataAreText() {
    byte[] pom = "<project><scm><url>https://example.org/a?x=1&amp;y=2<![CDATA[&z]]></url></scm></project>".getBytes(StandardCharsets.UTF_8);

    assertThat(PomScm.read(pom)).containsExactly(new PomScm.Declared("url", "https://example.org/a?x=1&y=2&z"));
  }

  @Test
  void refusesADocumentTypeDeclarationWithoutReadingWhatItNames() {
    byte[] pom = """
        <?xml version="1.0"?>
        <!DOCTYPE project [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
        <project><scm><url>&secret;</url></scm></project>
        """.getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> PomScm.read(pom))
        .isInstanceOf(PomScm.UnreadableException.class)
        .message().doesNotContain("root:");
  }
}
