package dev.capability.acquire.sigstore.internal;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.StringLength;

/**
 * Whatever an operator (or a mistake) puts in a Sigstore trust file whose trusted root is missing,
 * loading it refuses with {@code SIGSTORE_TRUST_INVALID} and nothing else: no other exception
 * type, and no file that loads without a trusted root.
 */
class SigstoreTrustFileProperties {
  private static final String VALID = "{\"trustedRoot\": \"absent-root.json\", \"identities\": [{\"issuer\": \"https://issuer.example\", "
      + "\"subjectPattern\": \"release@example\\\\.com\", \"coordinates\": [\"com.example:hello\"]}]}";

  @Property(tries = 300)
  void arbitraryTextIsRefusedWithTheTrustCode(@ForAll @StringLength(max = 300) String text) throws IOException {
    assertRefused(text);
  }

  @Property(tries = 300)
  void everyOneCharacterChangeOfAFileIsRefusedWithTheTrustCode(@ForAll("positions") int position, @ForAll("jsonCharacters") char replacement)
      throws IOException {
    char[] changed = VALID.toCharArray();
    changed[position] = replacement;

    assertRefused(new String(changed));
  }

  @Provide
  Arbitrary<Integer> positions() {
    return Arbitraries.integers().between(0, VALID.length() - 1);
  }

  @Provide
  Arbitrary<Character> jsonCharacters() {
    return Arbitraries.of("{}[]\":,\\ 0az*.()".chars().mapToObj(c -> (char) c).toArray(Character[]::new));
  }

  private static void assertRefused(String text) throws IOException {
    Path directory = Files.createTempDirectory("sigstore-trust");
    Path file = Files.writeString(directory.resolve("sigstore.json"), text);
    try {
      assertThatThrownBy(() -> SigstoreTrustFile.load(file))
          .isInstanceOf(AcquisitionRefusedException.class)
          .extracting(e -> ((AcquisitionRefusedException) e).code())
          .isEqualTo(AcquisitionCodes.SIGSTORE_TRUST_INVALID);
    } finally {
      Files.delete(file);
      Files.delete(directory);
    }
  }
}
