package dev.capability.discovery;

import dev.capability.acquire.Coordinates;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IndexSearchTest {
  private static final URI SEED = URI.create("https://a.example.org/");
  private static final URI FAR = URI.create("https://b.example.org/");

  private static FoundEntry found(String name, String artifact, String description, Map<String, String> claims, URI... path) {
    IndexEntry entry = new IndexEntry(Coordinates.parse("org.example:" + artifact + ":1.0.0"), name, description, List.of(), claims);
    return new FoundEntry(entry, path[path.length - 1], List.of(path));
  }

  private static List<String> names(List<SearchHit> hits) {
    return hits.stream().map(hit -> hit.found().entry().name()).toList();
  }

  @Test
  void ranksExactNamesThenNamesThenArtifactsThenDescriptions() {
    DiscoveryResult result = new DiscoveryResult(List.of(
        found("describes", "other", "works with notes", Map.of(), SEED),
        found("notes-pro", "x", "", Map.of(), SEED),
        found("notes", "x", "", Map.of(), SEED),
        found("zzz", "notes-lib", "", Map.of(), SEED),
        found("unrelated", "y", "nothing here", Map.of(), SEED)), List.of(SEED), List.of(), DiscoveryCodes.INDEX_COMPLETE);

    List<SearchHit> hits = IndexSearch.search(result, "NOTES");

    assertThat(names(hits)).containsExactly("notes", "notes-pro", "zzz", "describes");
    assertThat(hits).extracting(SearchHit::score).containsExactly(8, 4, 2, 1);
  }

  @Test
  void everyTermMustMatchAndNearerIndexesWinTies() {
    DiscoveryResult result = new DiscoveryResult(List.of(
        found("mail", "mail", "send mail", Map.of(), SEED, FAR),
        found("mail", "mail", "send mail", Map.of(), SEED),
        found("mailer", "m", "reads mail", Map.of(), SEED)), List.of(SEED, FAR), List.of(), DiscoveryCodes.INDEX_COMPLETE);

    List<SearchHit> hits = IndexSearch.search(result, "mail send");

    assertThat(hits).hasSize(2);
    assertThat(hits.get(0).found().depth()).isZero();
    assertThat(hits.get(1).found().path()).containsExactly(SEED, FAR);
  }

  @Test
  void aVerifiedClaimChangesNeitherScoreNorOrder() {
    FoundEntry claimed = found("tool", "b", "", Map.of("verified", "true", "trusted", "true"), SEED);
    FoundEntry plain = found("tool", "a", "", Map.of(), SEED);
    DiscoveryResult result = new DiscoveryResult(List.of(claimed, plain), List.of(SEED), List.of(), DiscoveryCodes.INDEX_COMPLETE);

    List<SearchHit> hits = IndexSearch.search(result, "tool");

    assertThat(hits.get(0).score()).isEqualTo(hits.get(1).score());
    assertThat(hits.get(0).found()).isEqualTo(plain); // ordered by coordinates, a before b
  }

  @Test
  void refusesBlankQueries() {
    DiscoveryResult empty = new DiscoveryResult(List.of(), List.of(), List.of(), DiscoveryCodes.INDEX_COMPLETE);
    assertThatThrownBy(() -> IndexSearch.search(empty, "  ")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> IndexSearch.search(empty, "a ".repeat(17))).isInstanceOf(IllegalArgumentException.class);
  }
}
