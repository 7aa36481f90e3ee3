package dev.capability.acquire.sigstore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.Check;
import dev.capability.acquire.Coordinates;
import dev.capability.acquire.sigstore.internal.SigstoreTrustFile;
import dev.capability.acquire.sigstore.internal.SigstoreVerifier;
import dev.capability.acquire.spi.SigstoreOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Whatever the repository serves as a bundle, verification returns an outcome and never throws;
 * no truncation of a good bundle verifies, and no single changed character makes a bundle verify
 * for another signer.
 */
class SigstoreBundleProperties {
  private static final String ISSUER = "https://token.actions.githubusercontent.com";
  private static final String WORKFLOW = "https://github.com/example/hello/.github/workflows/release.yml@refs/tags/v1.0.0";
  private static final byte[] ARTIFACT = "the released capability package".getBytes(StandardCharsets.UTF_8);
  private static final Coordinates COORDINATES = Coordinates.parse("com.example:hello:1.0.0@zip");

  private static Path work;
  private static SigstoreVerifier verifier;
  private static SigstoreFixture.Signed good;
  private static SigstoreOutcome goodOutcome;

  @BeforeContainer
  static void makeDeploymentAndBundle() throws IOException {
    work = Files.createTempDirectory("sigstore-properties");
    SigstoreFixture fixture = SigstoreFixture.create();
    fixture.writeTrustedRoot(work);
    Path trust = Files.writeString(work.resolve("sigstore.json"), "{\"trustedRoot\": \"trusted_root.json\", \"identities\": ["
        + "{\"issuer\": \"" + ISSUER + "\", \"subjectPattern\": \".*\", \"coordinates\": [\"com.example:*\"]}]}");
    verifier = new SigstoreVerifier(SigstoreTrustFile.load(trust));
    good = fixture.sign(ARTIFACT, ISSUER, WORKFLOW);
    goodOutcome = verify(good.bundleJson().getBytes(StandardCharsets.UTF_8));
  }

  @AfterContainer
  static void removeWork() throws IOException {
    try (Stream<Path> files = Files.walk(work)) {
      files.sorted(Comparator.reverseOrder()).forEach(file -> {
        try {
          Files.delete(file);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }

  @Property(tries = 200)
  void arbitraryBytesAreRefusedAsNoBundle(@ForAll @Size(max = 4096) byte[] served) {
    SigstoreOutcome outcome = verify(served);

    assertThat(outcome.check().status()).isEqualTo(Check.Status.FAILED);
    assertThat(outcome.check().code()).isEqualTo(AcquisitionCodes.SIGSTORE_BUNDLE_INVALID);
  }

  @Property(tries = 100)
  void noTruncationOfAGoodBundleVerifies(@ForAll("shorterThanTheBundle") int length) {
    byte[] whole = good.bundleJson().getBytes(StandardCharsets.UTF_8);
    byte[] truncated = java.util.Arrays.copyOf(whole, length);

    assertThat(goodOutcome.check().isVerified()).as(goodOutcome.check().detail()).isTrue();
    assertThat(verify(truncated).check().status()).isEqualTo(Check.Status.FAILED);
  }

  @Property(tries = 200)
  void oneChangedCharacterNeverMakesTheBundleVerifyForAnotherSigner(
      @ForAll("positionsInTheBundle") int position, @ForAll("base64Characters") char replacement) {
    byte[] changed = good.bundleJson().getBytes(StandardCharsets.UTF_8);
    changed[position] = (byte) replacement;

    SigstoreOutcome outcome = verify(changed);

    assertThat(outcome.check().status()).isIn(Check.Status.VERIFIED, Check.Status.FAILED);
    if (outcome.check().isVerified()) {
      assertThat(outcome.signer()).isEqualTo(goodOutcome.signer());
    }
  }

  @Provide
  Arbitrary<Integer> shorterThanTheBundle() {
    return Arbitraries.integers().between(0, good.bundleJson().getBytes(StandardCharsets.UTF_8).length - 1);
  }

  @Provide
  Arbitrary<Integer> positionsInTheBundle() {
    return Arbitraries.integers().between(0, good.bundleJson().getBytes(StandardCharsets.UTF_8).length - 1);
  }

  @Provide
  Arbitrary<Character> base64Characters() {
    return Arbitraries.of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\"{} ".chars().mapToObj(c -> (char) c).toArray(Character[]::new));
  }

  private static SigstoreOutcome verify(byte[] served) {
    return verifier.verify(served, good.artifactSha256Hex(), COORDINATES, "hello-1.0.0.zip");
  }
}
