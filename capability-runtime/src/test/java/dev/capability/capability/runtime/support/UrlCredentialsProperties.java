package dev.capability.capability.runtime.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class UrlCredentialsProperties {

  record Parts(String scheme, String host, String port, String path, String query) {
    String origin() {
      return scheme + "://" + host + port;
    }

    String rest() {
      return path + (query.isEmpty() ? "" : "?" + query);
    }

    String url() {
      return origin() + rest();
    }

    String withUserInfo(String userInfo) {
      return scheme + "://" + userInfo + "@" + host + port + rest();
    }
  }

  @Provide
  Arbitrary<Parts> urls() {
    Arbitrary<String> scheme = Arbitraries.of("http", "https", "HTTPS", "git+https");
    Arbitrary<String> label = Combinators.combine(
            Arbitraries.chars().range('a', 'z'),
            Arbitraries.strings().withChars("abcdefghijklmnopqrstuvwxyz0123456789-").ofMaxLength(7))
        .as((first, rest) -> first + rest.replaceAll("-+$", ""));
    Arbitrary<String> name = label.list().ofMinSize(1).ofMaxSize(3).map(labels -> String.join(".", labels));
    Arbitrary<String> host = Arbitraries.oneOf(name, Arbitraries.of("127.0.0.1", "[::1]", "10.1.2.3"));
    Arbitrary<String> port = Arbitraries.oneOf(Arbitraries.just(""), Arbitraries.integers().between(1, 65535).map(p -> ":" + p));
    // Paths may hold '@' (npm scopes: /@scope%2fname/1.0.0) without it being user information.
    Arbitrary<String> segment = Arbitraries.strings().withChars("abcXYZ019-_~.@").ofMinLength(1).ofMaxLength(8);
    Arbitrary<String> path = segment.list().ofMaxSize(4).map(segments -> segments.isEmpty() ? "" : "/" + String.join("/", segments));
    Arbitrary<String> harmlessName = Arbitraries.of("q", "page", "version", "format", "name", "author", "keyid", "monkeys", "id");
    Arbitrary<String> value = Arbitraries.strings().withChars("abcXYZ019-_.%").ofMaxLength(8).map(v -> v.replace("%", "%25"));
    Arbitrary<String> pair = Combinators.combine(harmlessName, value).as((n, v) -> n + "=" + v);
    Arbitrary<String> query = pair.list().ofMaxSize(3).map(pairs -> String.join("&", pairs));
    return Combinators.combine(scheme, host, port, path, query).as(Parts::new);
  }

  /** Any text at all, a password as a person might choose it. */
  @Provide
  Arbitrary<String> passwords() {
    return Arbitraries.strings().all().ofMinLength(1).ofMaxLength(24);
  }

  private static String encoded(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  @Property
  void urlsWithoutCredentialsAreUnchanged(@ForAll("urls") Parts parts) {
    assertThat(UrlCredentials.redacted(parts.url())).isEqualTo(parts.url());
    assertThat(UrlCredentials.redacted(URI.create(parts.url()))).isEqualTo(URI.create(parts.url()));
    String message = "cannot fetch " + parts.url() + ": connection refused";
    assertThat(UrlCredentials.redactedIn(message)).isEqualTo(message);
  }

  @Property
  void encodedUserInformationIsReplacedAndTheRestKept(
      @ForAll("urls") Parts parts, @ForAll("passwords") String user, @ForAll("passwords") String password) {
    String url = parts.withUserInfo(encoded(user) + ":" + encoded(password));
    String expected = parts.withUserInfo(UrlCredentials.REDACTED);
    assertThat(UrlCredentials.redacted(url)).isEqualTo(expected);
    assertThat(UrlCredentials.redacted(URI.create(url))).isEqualTo(URI.create(expected));
    assertThat(UrlCredentials.redactedIn("repository '" + url + "' answered HTTP 401 (see " + url + ")"))
        .isEqualTo("repository '" + expected + "' answered HTTP 401 (see " + expected + ")");
  }

  @Property
  void aBareTokenAsUserInformationIsReplaced(@ForAll("urls") Parts parts, @ForAll("passwords") String token) {
    String url = parts.withUserInfo(encoded(token));
    assertThat(UrlCredentials.redacted(url)).isEqualTo(parts.withUserInfo(UrlCredentials.REDACTED));
  }

  /**
   * Written as typed, unencoded: spaces, quotes, '%', ':', non-ASCII, control characters. Such a
   * URL is often malformed; nothing between {@code //} and {@code @} survives, and nothing throws.
   * ('/', '?', '#' and '@' end the user information in every URL parser, so a password holding
   * them unencoded is another URL: see the examples below for '/'.)
   */
  @Property
  void rawUserInformationNeverSurvivesAndNeverThrows(
      @ForAll("urls") Parts parts, @ForAll("passwords") String user, @ForAll("passwords") String password) {
    String userInfo = (user + ":" + password).replaceAll("[/?#@]", "x");
    String url = parts.withUserInfo(userInfo);
    String redacted = UrlCredentials.redacted(url);
    assertThat(redacted).startsWith(parts.scheme() + "://" + UrlCredentials.REDACTED + "@").endsWith(parts.host() + parts.port() + parts.rest());
    assertThat(redacted).isEqualTo(parts.withUserInfo(UrlCredentials.REDACTED));
  }

  @Property
  void arbitraryTextNeverThrows(@ForAll String text) {
    UrlCredentials.redacted(text);
    UrlCredentials.redactedIn(text);
    UrlCredentials.redactedIn("https://" + text);
    UrlCredentials.redactedIn("see https://u:p@" + text + " and http://" + text + "?token=" + text);
  }

  @Property
  void secretParametersLoseTheirValuesOnly(
      @ForAll("urls") Parts parts,
      @ForAll("secretNames") String name,
      @ForAll("passwords") String secret) {
    String separator = parts.query().isEmpty() ? "?" : "?" + parts.query() + "&";
    String url = parts.origin() + parts.path() + separator + name + "=" + encoded(secret) + "&page=2";
    assertThat(UrlCredentials.redacted(url))
        .isEqualTo(parts.origin() + parts.path() + separator + name + "=" + UrlCredentials.REDACTED + "&page=2");
    String inFragment = parts.url() + "#" + name + "=" + encoded(secret);
    assertThat(UrlCredentials.redacted(inFragment)).isEqualTo(parts.url() + "#" + name + "=" + UrlCredentials.REDACTED);
  }

  @Provide
  Arbitrary<String> secretNames() {
    return Arbitraries.of(
        "token", "access_token", "refresh_token", "id_token", "key", "api_key", "apiKey", "Subscription-Key", "secret",
        "client_secret", "password", "passwd", "pwd", "pass", "sig", "signature", "X-Amz-Signature", "X-Amz-Credential",
        "X-Amz-Security-Token", "X-Goog-Signature", "auth", "authorization", "sessionid", "private_key", "acc%65ss_token");
  }

  @Example
  void aPasswordWithAnUnencodedSlashIsHiddenWhenWhatPrecedesItIsNoHostAndPort() {
    assertThat(UrlCredentials.redacted("http://user:pa/ss@127.0.0.1:8080/maven2/"))
        .isEqualTo("http://redacted@127.0.0.1:8080/maven2/");
    assertThat(UrlCredentials.redacted("https://user:s3cret word@repo.example/"))
        .isEqualTo("https://redacted@repo.example/");
  }

  @Example
  void npmScopesInThePathAreNotUserInformation() {
    String url = "https://registry.npmjs.org:8443/@scope%2fname/1.0.0";
    assertThat(UrlCredentials.redacted(url)).isEqualTo(url);
    assertThat(UrlCredentials.redacted("https://t0ken@registry.npmjs.org/@scope%2fname/-/name-1.0.0.tgz"))
        .isEqualTo("https://redacted@registry.npmjs.org/@scope%2fname/-/name-1.0.0.tgz");
  }

  @Example
  void everyUrlInATextIsRedacted() {
    assertThat(UrlCredentials.redactedIn("a http://u:p1@h/x?sig=abc&v=1 b 'ftp://t@k/' c"))
        .isEqualTo("a http://redacted@h/x?sig=redacted&v=1 b 'ftp://redacted@k/' c");
    assertThat(UrlCredentials.redactedIn("no url here: user@example.com")).isEqualTo("no url here: user@example.com");
  }

  @Example
  void namesThatOnlyResembleSecretsAreKept() {
    for (String name : List.of("keyid", "monkeys", "author", "q", "signed", "passage")) {
      assertThat(UrlCredentials.secretName(name)).as(name).isFalse();
    }
  }
}
