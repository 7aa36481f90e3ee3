package dev.capability.kernel.api.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** The {@code host:port} grammar of egress grants: what it reads, prints back, and refuses. */
class EgressDestinationProperties {

  @Property(tries = 500)
  void aDestinationReadsBackFromItsOwnText(@ForAll("destinations") EgressDestination destination) {
    assertThat(EgressDestination.parse(destination.toString())).isEqualTo(destination);
  }

  @Property(tries = 300)
  void namesAreComparedWithoutCase(@ForAll("names") String name, @ForAll @IntRange(min = 1, max = 65535) int port) {
    EgressDestination upper = EgressDestination.parse(name.toUpperCase(Locale.ROOT) + ":" + port);
    assertThat(upper).isEqualTo(new EgressDestination(name, port));
    assertThat(EgressRules.allowing(List.of(upper)).allows(name.toUpperCase(Locale.ROOT), port)).isTrue();
    assertThat(EgressRules.allowing(List.of(upper)).allows(name, port == 65535 ? 1 : port + 1)).isFalse();
  }

  @Property(tries = 300)
  void anyTextEitherReadsOrIsRefusedWithAReason(@ForAll String text) {
    try {
      EgressDestination read = EgressDestination.parse(text);
      assertThat(EgressDestination.parse(read.toString())).isEqualTo(read);
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).isNotBlank();
    }
  }

  @Example
  void formsThatWouldWidenOrBlurAGrantAreRefused() {
    for (String text : List.of("example.com", "example.com:", "example.com:0", "example.com:65536", "example.com.:443",
        "*.example.com:443", "user:pw@example.com:443", "example.com:443/path", "::1:443", "[example.com]:443",
        "exa mple.com:443", "-example.com:443", "example.com:+443", "example.com:0443", "[::1]443", "",
        "[::::]:443", "[1:2:3:4:5:6:7:8:9]:443", "[1::2::3]:443", "[:1::2]:443", "[12345::1]:443", "[1:2:3:4:5:6:7]:443",
        "[::1.2.3]:443", "[1.2.3.4::1]:443")) {
      assertThatThrownBy(() -> EgressDestination.parse(text)).as(text).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Example
  void literalsAreToldFromNames() {
    assertThat(EgressDestination.parse("10.0.0.1:80").isIpLiteral()).isTrue();
    assertThat(EgressDestination.parse("[fd00::1]:443").isIpLiteral()).isTrue();
    assertThat(EgressDestination.parse("[fd00::1]:443").toString()).isEqualTo("[fd00::1]:443");
    assertThat(EgressDestination.parse("git.test:8080").isIpLiteral()).isFalse();
    for (String literal : List.of("[::]:1", "[::1]:1", "[1::]:1", "[fe80::1:2]:1", "[::ffff:10.0.0.1]:1", "[1:2:3:4:5:6:7:8]:1",
        "[1:2:3:4:5:6:1.2.3.4]:1")) {
      assertThat(EgressDestination.parse(literal).isIpLiteral()).as(literal).isTrue();
    }
  }

  @Provide
  Arbitrary<String> names() {
    Arbitrary<String> label = Arbitraries.strings().withChars("abcdefghijklmnopqrstuvwxyz0123456789").ofMinLength(1).ofMaxLength(20);
    return label.list().ofMinSize(1).ofMaxSize(4).map(labels -> String.join(".", labels));
  }

  @Provide
  Arbitrary<EgressDestination> destinations() {
    Arbitrary<String> ipv4 = Arbitraries.integers().between(0, 255).list().ofSize(4)
        .map(parts -> String.join(".", parts.stream().map(String::valueOf).toList()));
    Arbitrary<String> ipv6 = Arbitraries.integers().between(0, 0xffff).list().ofSize(8)
        .map(parts -> String.join(":", parts.stream().map(Integer::toHexString).toList()));
    Arbitrary<String> host = Arbitraries.oneOf(names(), ipv4, ipv6);
    return Combinators.combine(host, Arbitraries.integers().between(1, 65535)).as(EgressDestination::new);
  }
}
