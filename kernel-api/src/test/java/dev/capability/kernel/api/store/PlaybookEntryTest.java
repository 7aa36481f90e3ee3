package dev.capability.kernel.api.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.CapabilityException;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** An entry holds vocabulary tokens only: a path, a file name, a sentence or a long value cannot be one. */
class PlaybookEntryTest {

  @Test
  void refusesPathsSentencesAndLongValuesWithoutRepeatingThem() {
    for (String bad : List.of("src/main/java/Secret.java", "Secret.java", "secret.java", "the API returned null", "UPPER", "a".repeat(33),
        "", "x--y", "-x", "x-", "..", "c:\\x", "x\ny")) {
      assertThatThrownBy(() -> new PlaybookEntry(bad, "api-behaviour", Set.of(), Set.of()))
          .isInstanceOfSatisfying(CapabilityException.class, e -> {
            assertThat(e.code()).isEqualTo(PlaybookEntry.INVALID);
            assertThat(e.getMessage()).contains("rootCause");
            if (!bad.isEmpty()) {
              assertThat(e.getMessage()).doesNotContain(bad);
            }
          });
      assertThatThrownBy(() -> new PlaybookEntry("misread-api", bad, Set.of(), Set.of()))
          .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(PlaybookEntry.INVALID));
      assertThatThrownBy(() -> new PlaybookEntry("misread-api", "api-behaviour", Set.of(bad), Set.of()))
          .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(PlaybookEntry.INVALID));
      assertThatThrownBy(() -> new PlaybookEntry("misread-api", "api-behaviour", Set.of(), Set.of(bad)))
          .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(PlaybookEntry.INVALID));
    }
    assertThatThrownBy(() -> new PlaybookEntry(null, "api-behaviour", Set.of(), Set.of()))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(PlaybookEntry.INVALID));
  }

  @Test
  void refusesMoreThanEightLanguagesOrRoles() {
    Set<String> nine = Set.of("a", "b", "c", "d", "e", "f", "g", "h", "i");
    assertThatThrownBy(() -> new PlaybookEntry("misread-api", "api-behaviour", nine, Set.of()))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(PlaybookEntry.INVALID));
    assertThatThrownBy(() -> new PlaybookEntry("misread-api", "api-behaviour", Set.of(), nine))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(PlaybookEntry.INVALID));
    assertThat(new PlaybookEntry("a".repeat(32), "kind-2", Set.of("cpp", "c"), Set.of("build")).languages()).containsExactly("c", "cpp");
  }

  @Test
  void concernsFilesSharingARoleAndALanguageWhereEmptyMeansAny() {
    PlaybookEntry javaSource = new PlaybookEntry("misread-api", "api-behaviour", Set.of("java"), Set.of("source"));
    assertThat(javaSource.concerns(Set.of("java", "xml"), Set.of("source"))).isTrue();
    assertThat(javaSource.concerns(Set.of(), Set.of("source"))).isTrue();
    assertThat(javaSource.concerns(Set.of("java"), Set.of())).isTrue();
    assertThat(javaSource.concerns(Set.of("python"), Set.of("source"))).isFalse();
    assertThat(javaSource.concerns(Set.of("java"), Set.of("test"))).isFalse();
    assertThat(new PlaybookEntry("misread-api", "api-behaviour", Set.of(), Set.of()).concerns(Set.of("go"), Set.of("test"))).isTrue();
  }

  /** Whatever a caller passes, a stored member never holds a path separator, a dot, a space, or more than 32 characters. */
  @Property(tries = 500)
  void anAcceptedValueIsAShortWordAndEverythingElseIsRefused(@ForAll String value) {
    boolean accepted;
    try {
      new PlaybookEntry(value, "kind", Set.of(value), Set.of());
      accepted = true;
    } catch (CapabilityException e) {
      assertThat(e.code()).isEqualTo(PlaybookEntry.INVALID);
      accepted = false;
    }
    assertThat(accepted).isEqualTo(PlaybookEntry.isToken(value));
    if (accepted) {
      assertThat(value).hasSizeBetween(1, PlaybookEntry.MAX_TOKEN_LENGTH).doesNotContain("/", ".", " ", "\\").matches("[a-z0-9-]+");
    }
  }
}
