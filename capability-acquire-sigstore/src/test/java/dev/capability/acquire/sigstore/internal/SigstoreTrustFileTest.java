package dev.capability.acquire.sigstore.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import dev.capability.acquire.spi.CoordinatePattern;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Sigstore trust file is strict: every mistake is refused with one code that names where it is. */
class SigstoreTrustFileTest {
  private static final String IDENTITY =
      "{\"issuer\": \"https://issuer.example\", \"subject\": \"release@example.com\", \"coordinates\": [\"com.example:hello\"]}";

  @TempDir Path work;

  @ParameterizedTest
  @ValueSource(strings = {
      "[]",
      "{\"identities\": [" + IDENTITY + "]}",
      "{\"trustedRoot\": \"root.json\"}",
      "{\"trustedRoot\": \"root.json\", \"identities\": []}",
      "{\"trustedRoot\": \"root.json\", \"identities\": [" + IDENTITY + "], \"fetchRoot\": true}",
      "{\"trustedRoot\": \"root.json\", \"identities\": [{\"issuer\": \"https://issuer.example\", \"coordinates\": [\"com.example:hello\"]}]}",
      "{\"trustedRoot\": \"root.json\", \"identities\": [{\"issuer\": \"https://i\", \"subject\": \"a\", \"subjectPattern\": \"a\", \"coordinates\": [\"com.example:hello\"]}]}",
      "{\"trustedRoot\": \"root.json\", \"identities\": [{\"issuer\": \"https://i\", \"subjectPattern\": \"(unclosed\", \"coordinates\": [\"com.example:hello\"]}]}",
      "{\"trustedRoot\": \"root.json\", \"identities\": [{\"issuer\": \"https://i\", \"subject\": \"a\", \"coordinates\": [\"*:*\"]}]}",
      "{\"trustedRoot\": \"root.json\", \"identities\": [{\"issuer\": \"https://i\", \"subject\": \"a\", \"coordinates\": []}]}",
      "{\"trustedRoot\": \"root.json\", \"identities\": [{\"subject\": \"a\", \"coordinates\": [\"com.example:hello\"]}]}",
      "{\"trustedRoot\": \"root.json\", \"identities\": [{\"issuer\": \"https://i\", \"subject\": \"a\", \"coordinates\": [\"com.example:hello\"], \"verified\": true}]}",
      "{\"trustedRoot\": \"root.json\", \"trustedRoot\": \"other.json\", \"identities\": [" + IDENTITY + "]}",
  })
  void refusesAMalformedTrustFile(String json) throws IOException {
    Path file = Files.writeString(work.resolve("sigstore.json"), json);

    assertRefused(file);
  }

  @Test
  void refusesATrustedRootThatIsMissing() throws IOException {
    Path file = Files.writeString(work.resolve("sigstore.json"), "{\"trustedRoot\": \"absent.json\", \"identities\": [" + IDENTITY + "]}");

    assertThatThrownBy(() -> SigstoreTrustFile.load(file))
        .isInstanceOf(AcquisitionRefusedException.class)
        .hasMessageContaining("absent.json");
  }

  @Test
  void refusesATrustedRootThatIsNotOne() throws IOException {
    Files.writeString(work.resolve("root.json"), "{\"mediaType\": \"application/vnd.dev.sigstore.trustedroot+json;version=0.1\", \"tlogs\": 7}");
    Path file = Files.writeString(work.resolve("sigstore.json"), "{\"trustedRoot\": \"root.json\", \"identities\": [" + IDENTITY + "]}");

    assertRefused(file);
  }

  @Test
  void refusesAnEmptyTrustedRootThatWouldCertifyNothing() throws IOException {
    Files.writeString(work.resolve("root.json"), "{\"mediaType\": \"application/vnd.dev.sigstore.trustedroot+json;version=0.1\"}");
    Path file = Files.writeString(work.resolve("sigstore.json"), "{\"trustedRoot\": \"root.json\", \"identities\": [" + IDENTITY + "]}");

    assertThatThrownBy(() -> SigstoreTrustFile.load(file))
        .isInstanceOf(AcquisitionRefusedException.class)
        .hasMessageContaining("at least one certificate authority");
  }

  @Test
  void aSubjectPatternMustMatchTheWholeSubject() {
    SigstoreIdentity identity = new SigstoreIdentity(
        "https://issuer.example", java.util.regex.Pattern.compile("release@example\\.com"), Optional.empty(),
        java.util.List.of(CoordinatePattern.parse("com.example:hello")));

    assertThat(identity.matches(signer("https://issuer.example", "release@example.com"))).isTrue();
    assertThat(identity.matches(signer("https://issuer.example", "release@example.com.attacker.net"))).isFalse();
    assertThat(identity.matches(signer("https://issuer.example", "x-release@example.com"))).isFalse();
    assertThat(identity.matches(signer("https://issuer.example.attacker.net", "release@example.com"))).isFalse();
  }

  private static SigstoreSigner signer(String issuer, String subject) {
    return new SigstoreSigner(issuer, subject, Optional.empty());
  }

  private static void assertRefused(Path file) {
    assertThatThrownBy(() -> SigstoreTrustFile.load(file))
        .isInstanceOf(AcquisitionRefusedException.class)
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.SIGSTORE_TRUST_INVALID);
  }
}
