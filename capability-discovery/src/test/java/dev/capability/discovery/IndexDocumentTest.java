package dev.capability.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.capability.runtime.Effect;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IndexDocumentTest {
  private static final URI SOURCE = URI.create("https://index.example.org/dir/index.json");

  static IndexDocument parse(String json) {
    return IndexDocument.parse(json.getBytes(StandardCharsets.UTF_8), SOURCE);
  }

  static String wrap(String entry) {
    return "{\"format\":\"capability-index/1\",\"entries\":[" + entry + "]}";
  }

  @Test
  void readsEntriesWithEffectsClaimsAndResolvedLinks() {
    IndexDocument document = parse("""
        {"format": "capability-index/1",
         "entries": [{"coordinates": "org.example:notes:1.2.0:cap@zip", "name": "notes",
                      "description": "Keeps notes", "effects": {"filesystem.write": ["notes"]},
                      "claims": {"verified": true, "audited-by": "someone"}}],
         "links": ["other.json", "/root.json", "https://INDEX.example.org:443/dir/./other.json"]}
        """);

    IndexEntry entry = document.entries().get(0);
    assertThat(entry.coordinates().toString()).isEqualTo("org.example:notes:1.2.0:cap@zip");
    assertThat(entry.effects()).containsExactly(Effect.of("filesystem.write", "notes"));
    assertThat(entry.claims()).containsEntry("verified", "true");
    assertThat(document.links()).containsExactly(
        URI.create("https://index.example.org/dir/other.json"), URI.create("https://index.example.org/root.json"));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"format\":\"capability-index/1\",\"entries\":[],\"entries\":[]}",
      "{\"format\":\"capability-index/1\",\"verified\":true}",
      "{\"format\":\"capability-index/2\"}",
      "{\"entries\":[]}",
      "[]",
      "{\"format\":\"capability-index/1\"} trailing",
      "{\"format\":\"capability-index/1\",/* comment */\"entries\":[]}",
      "{\"format\":\"capability-index/1\",\"links\":[\"ftp://example.org/i\"]}",
      "{\"format\":\"capability-index/1\",\"links\":[\"https://user:pw@example.org/i\"]}",
      "{\"format\":\"capability-index/1\",\"links\":[42]}"
  })
  void refusesMalformedDocuments(String json) {
    assertThatThrownBy(() -> parse(json))
        .isInstanceOf(IndexRefusedException.class)
        .extracting(e -> ((IndexRefusedException) e).code())
        .isEqualTo(DiscoveryCodes.INDEX_INVALID);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"coordinates\":\"org.example:notes:[1.0,2.0)\",\"name\":\"notes\"}",
      "{\"coordinates\":\"org.example:notes:LATEST\",\"name\":\"notes\"}",
      "{\"coordinates\":\"org.example:notes:1.0-SNAPSHOT\",\"name\":\"notes\"}",
      "{\"coordinates\":\"org.example:notes\",\"name\":\"notes\"}",
      "{\"coordinates\":\"org.example:notes:1.0\",\"name\":\"Notes\"}",
      "{\"coordinates\":\"org.example:notes:1.0\",\"name\":\"notes\",\"effects\":{\"network.listen\":[\"x:1\"]}}",
      "{\"coordinates\":\"org.example:notes:1.0\",\"name\":\"notes\",\"effects\":{\"filesystem.write\":[\"/\"]}}",
      "{\"coordinates\":\"org.example:notes:1.0\",\"name\":\"notes\",\"effects\":{\"network.connect\":[\"*:443\"]}}",
      "{\"coordinates\":\"org.example:notes:1.0\",\"name\":\"notes\",\"description\":\"bidi \\u202e trick\"}",
      "{\"coordinates\":\"org.example:notes:1.0\",\"name\":\"notes\",\"claims\":{\"verified\":{\"by\":\"me\"}}}",
      "{\"coordinates\":\"org.example:notes:1.0\",\"name\":\"notes\",\"trusted\":true}"
  })
  void refusesADocumentWithOneBadEntryNamingIt(String entry) {
    assertThatThrownBy(() -> parse(wrap(entry)))
        .isInstanceOf(IndexRefusedException.class)
        .hasMessageContaining("/entries/0")
        .extracting(e -> ((IndexRefusedException) e).code())
        .isEqualTo(DiscoveryCodes.INDEX_INVALID);
  }

  @Test
  void refusesTooDeepAndByteOrderMarkedDocuments() {
    String deep = "{\"format\":\"capability-index/1\",\"entries\":[{\"coordinates\":\"a:b:1\",\"name\":\"b\",\"claims\":"
        + "[".repeat(20) + "]".repeat(20) + "}]}";
    assertThatThrownBy(() -> parse(deep)).isInstanceOf(IndexRefusedException.class);
    byte[] bom = ("\uFEFF" + wrap("")).getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> IndexDocument.parse(bom, SOURCE))
        .extracting(e -> ((IndexRefusedException) e).code()).isEqualTo(DiscoveryCodes.INDEX_INVALID);
  }

  @Test
  void refusalsNeverRepeatTerminalControlCharactersFromTheDocument() {
    String hostile = "{\"format\": tru\u001b]0;owned\u0007\u001b[2J}";

    assertThatThrownBy(() -> parse(hostile))
        .isInstanceOf(IndexRefusedException.class)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\u001b").doesNotContain("\u0007"));
  }

  @Test
  void aVerifiedClaimIsOnlyRecorded() {
    IndexDocument claimed = parse(wrap("{\"coordinates\":\"a:b:1\",\"name\":\"b\",\"claims\":{\"verified\":true}}"));
    IndexDocument plain = parse(wrap("{\"coordinates\":\"a:b:1\",\"name\":\"b\"}"));

    IndexEntry withClaim = claimed.entries().get(0);
    IndexEntry without = plain.entries().get(0);
    assertThat(withClaim.claims()).containsEntry("verified", "true");
    assertThat(List.of(withClaim.coordinates(), withClaim.name(), withClaim.description(), withClaim.effects()))
        .isEqualTo(List.of(without.coordinates(), without.name(), without.description(), without.effects()));
  }
}
