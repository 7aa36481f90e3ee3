package dev.capability.acquire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class CoordinatesProperties {

  @Property
  void exactCoordinatesRoundTrip(@ForAll("exact") Coordinates coordinates) {
    assertThat(Coordinates.parse(coordinates.toString())).isEqualTo(coordinates);
  }

  @Property
  void theRepositoryPathStaysInsideTheRepository(@ForAll("exact") Coordinates coordinates) {
    String path = coordinates.repositoryPath();

    assertThat(path).doesNotStartWith("/").doesNotContain("\\").doesNotContain("//");
    for (String segment : path.split("/")) {
      assertThat(segment).isNotEmpty().isNotEqualTo("..").isNotEqualTo(".");
    }
    assertThat(path).endsWith("/" + coordinates.fileName());
  }

  @Property
  void anyTextIsParsedOrRefusedWithACoordinatesCode(@ForAll String text) {
    try {
      Coordinates parsed = Coordinates.parse(text);
      assertThat(Coordinates.parse(parsed.toString())).isEqualTo(parsed);
    } catch (AcquisitionRefusedException e) {
      assertThat(e.code()).startsWith("COORDINATES_");
    }
  }

  @Property
  void pathAndControlCharactersAreRefused(
      @ForAll("exact") Coordinates coordinates,
      @ForAll("hostile") String hostile,
      @ForAll @IntRange(min = 0, max = 200) int offset) {
    String text = coordinates.toString();
    int at = Math.min(offset, text.length());
    String attacked = text.substring(0, at) + hostile + text.substring(at);

    AcquisitionRefusedException refusal = catchThrowableOfType(AcquisitionRefusedException.class, () -> Coordinates.parse(attacked));

    assertThat(refusal).as(attacked).isNotNull();
    assertThat(refusal.code()).isEqualTo(AcquisitionCodes.COORDINATES_MALFORMED);
  }

  @Property
  void rangesAreRefused(@ForAll("exact") Coordinates coordinates, @ForAll("range") String range) {
    String text = coordinates.group() + ":" + coordinates.artifact() + ":" + range;

    assertThatThrownBy(() -> Coordinates.parse(text))
        .isInstanceOf(AcquisitionRefusedException.class)
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.COORDINATES_RANGE);
  }

  @Property
  void snapshotsAreRefused(@ForAll("exact") Coordinates coordinates, @ForAll("snapshotSuffix") String suffix) {
    String text = coordinates.group() + ":" + coordinates.artifact() + ":" + coordinates.version() + suffix;

    assertThatThrownBy(() -> Coordinates.parse(text))
        .isInstanceOf(AcquisitionRefusedException.class)
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.COORDINATES_SNAPSHOT);
  }

  @Example
  void latestAndReleaseAreNotExact() {
    for (String version : new String[] {"LATEST", "RELEASE", "latest", "Release"}) {
      assertThatThrownBy(() -> Coordinates.parse("com.example:hello:" + version))
          .isInstanceOf(AcquisitionRefusedException.class)
          .extracting(e -> ((AcquisitionRefusedException) e).code())
          .isEqualTo(AcquisitionCodes.COORDINATES_NOT_EXACT);
    }
  }

  @Example
  void emptyPartsAndDotDotAreMalformed() {
    for (String text : new String[] {"", ":a:1", "g::1", "g:a:", "g:a:1:", "g:a:1@", "g:a", "g:a:1:c:d", "g..h:a:1", "g:a:1@jar@zip", "g:..:1", ".g:a:1", "g:a:1..2"}) {
      assertThatThrownBy(() -> Coordinates.parse(text))
          .as(text)
          .isInstanceOf(AcquisitionRefusedException.class)
          .extracting(e -> ((AcquisitionRefusedException) e).code())
          .isEqualTo(AcquisitionCodes.COORDINATES_MALFORMED);
    }
  }

  @Example
  void theTypeDefaultsToJarAndTheClassifierIsOptional() {
    Coordinates plain = Coordinates.parse("com.example:hello:1.0.0");
    Coordinates full = Coordinates.parse("com.example:hello:1.0.0:capability@zip");

    assertThat(plain.repositoryPath()).isEqualTo("com/example/hello/1.0.0/hello-1.0.0.jar");
    assertThat(full.repositoryPath()).isEqualTo("com/example/hello/1.0.0/hello-1.0.0-capability.zip");
  }

  @Provide
  Arbitrary<Coordinates> exact() {
    Arbitrary<String> word = Arbitraries.strings().withChars("abcxyzABC019_").ofMinLength(1).ofMaxLength(8);
    Arbitrary<String> group = word.list().ofMinSize(1).ofMaxSize(4).map(parts -> String.join(".", parts));
    Arbitrary<String> version = Arbitraries.integers().between(0, 999).list().ofMinSize(1).ofMaxSize(4)
        .map(parts -> String.join(".", parts.stream().map(String::valueOf).toList()));
    Arbitrary<String> classifier = Arbitraries.oneOf(Arbitraries.just(""), word);
    Arbitrary<String> type = Arbitraries.of("jar", "zip", "tar.gz", "tgz");
    return Combinators.combine(group, word, version, classifier, type).as(Coordinates::new);
  }

  @Provide
  Arbitrary<String> hostile() {
    return Arbitraries.oneOf(
        Arbitraries.of("/", "\\", "\n", "\r", "\u0000", "\t", " ", "\u007f", "\u0085", "/../", "\\..\\"),
        Arbitraries.chars().range('\u0000', '\u001f').map(String::valueOf));
  }

  @Provide
  Arbitrary<String> range() {
    Arbitrary<String> v = Arbitraries.integers().between(0, 99).map(String::valueOf);
    return Combinators.combine(Arbitraries.of("[", "("), v, Arbitraries.of(",", ""), v, Arbitraries.of("]", ")"))
        .as((open, a, comma, b, close) -> comma.isEmpty() ? open + a + close : open + a + comma + b + close);
  }

  @Provide
  Arbitrary<String> snapshotSuffix() {
    return Arbitraries.of("-SNAPSHOT", "-snapshot", "-20251130.101010-3", ".SNAPSHOT");
  }
}
