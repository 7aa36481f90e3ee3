package dev.capability.discovery.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.discovery.DiscoveryCodes;
import dev.capability.discovery.IndexRefusedException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class CanonicalUrlProperties {

  record Parts(String scheme, String host, List<String> segments, String query) {
    String path() {
      return "/" + String.join("/", segments);
    }

    String url() {
      return scheme + "://" + host + path() + (query.isEmpty() ? "" : "?" + query);
    }
  }

  @Provide
  Arbitrary<Parts> urls() {
    Arbitrary<String> scheme = Arbitraries.of("http", "https");
    // java.net.URI wants every host label, and the last one above all, to start with a letter
    Arbitrary<String> label = Combinators.combine(
            Arbitraries.chars().range('a', 'z'),
            Arbitraries.strings().withChars("abcdefghijklmnopqrstuvwxyz0123456789").ofMaxLength(7))
        .as((first, rest) -> first + rest);
    Arbitrary<String> host = label.list().ofMinSize(1).ofMaxSize(4).map(labels -> String.join(".", labels));
    Arbitrary<String> segment = Arbitraries.strings().withChars("abcXYZ019-_~").ofMinLength(1).ofMaxLength(6);
    Arbitrary<String> query = Arbitraries.strings().withChars("abc=&1").ofMaxLength(8);
    return Combinators.combine(scheme, host, segment.list().ofMaxSize(5), query).as(Parts::new);
  }

  private static URI canonical(String text) {
    return CanonicalUrl.parse(text);
  }

  @Property
  void canonicalizingTwiceChangesNothing(@ForAll("urls") Parts parts, @ForAll("decorations") String decoration) {
    URI once = canonical(decorate(parts, decoration));
    assertThat(canonical(once.toString())).isEqualTo(once);
  }

  @Property
  void caseOfSchemeAndHostDoesNotMatter(@ForAll("urls") Parts parts) {
    String shouted = parts.scheme().toUpperCase(Locale.ROOT) + "://" + parts.host().toUpperCase(Locale.ROOT) + parts.path()
        + (parts.query().isEmpty() ? "" : "?" + parts.query());
    assertThat(canonical(shouted)).isEqualTo(canonical(parts.url()));
  }

  @Property
  void theDefaultPortAndTheFragmentDoNotMatter(@ForAll("urls") Parts parts) {
    String port = parts.scheme().equals("https") ? ":443" : ":80";
    String spelled = parts.scheme() + "://" + parts.host() + port + parts.path()
        + (parts.query().isEmpty() ? "" : "?" + parts.query()) + "#section";
    assertThat(canonical(spelled)).isEqualTo(canonical(parts.url()));
  }

  @Property
  void dotSegmentsAreResolved(@ForAll("urls") Parts parts) {
    StringBuilder path = new StringBuilder();
    for (String segment : parts.segments()) {
      path.append("/./detour/..").append('/').append(segment);
    }
    String dotted = parts.scheme() + "://" + parts.host() + (path.length() == 0 ? "/" : path.toString())
        + (parts.query().isEmpty() ? "" : "?" + parts.query());
    assertThat(canonical(dotted)).isEqualTo(canonical(parts.url()));
  }

  @Property
  void percentEncodedUnreservedCharactersEqualTheirLiterals(@ForAll("urls") Parts parts) {
    String encoded = parts.scheme() + "://" + parts.host() + parts.path().replace("a", "%61").replace("~", "%7e")
        + (parts.query().isEmpty() ? "" : "?" + parts.query().replace("a", "%61"));
    assertThat(canonical(encoded)).isEqualTo(canonical(parts.url()));
  }

  @Property
  void theCanonicalFormHasNoDotSegmentsFragmentOrDefaultPort(@ForAll("urls") Parts parts, @ForAll("decorations") String decoration) {
    URI url = canonical(decorate(parts, decoration));
    assertThat(url.getRawFragment()).isNull();
    assertThat(url.getPort()).isNotIn(80, 443);
    assertThat(url.getRawPath()).startsWith("/").doesNotContain("/./").doesNotContain("/../").doesNotEndWith("/..");
    assertThat(url.getHost()).isEqualTo(url.getHost().toLowerCase(Locale.ROOT));
  }

  @Property
  void userInformationIsRefusedWithoutRepeatingIt(@ForAll("urls") Parts parts) {
    String withUser = parts.scheme() + "://alice:s3cret@" + parts.host() + parts.path();
    assertThatThrownBy(() -> canonical(withUser))
        .isInstanceOf(IndexRefusedException.class)
        .hasMessageNotContaining("s3cret")
        .extracting(e -> ((IndexRefusedException) e).code())
        .isEqualTo(DiscoveryCodes.INDEX_URL_INVALID);
  }

  @Provide
  Arbitrary<String> decorations() {
    return Arbitraries.of("", "#frag", "/..", "/.", "/../..", "/./x/../");
  }

  private static String decorate(Parts parts, String decoration) {
    if (decoration.startsWith("#")) {
      return parts.url() + decoration;
    }
    return parts.scheme() + "://" + parts.host() + parts.path() + decoration;
  }
}
