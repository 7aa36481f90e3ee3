package dev.capability.acquire.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import dev.capability.acquire.Coordinates;
import dev.capability.acquire.SigstoreTrust;
import dev.capability.acquire.spi.SigstoreBundleVerifier;
import dev.capability.acquire.spi.SigstoreOutcome;
import dev.capability.acquire.spi.SigstoreVerifierProvider;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Sigstore verifier is a plug-in: found through ServiceLoader, never two, and its absence refused where it matters. */
class SigstoreVerifiersTest {
  @TempDir Path work;

  @Test
  void acquisitionAloneCarriesNoSigstoreVerifier() {
    assertThat(SigstoreVerifiers.find(getClass().getClassLoader())).isEmpty();
    assertThat(getClass().getClassLoader().getResource("dev/sigstore/KeylessVerifier.class")).as("sigstore-java is not on this module's class path").isNull();
  }

  @Test
  void aSigstoreTrustWithoutAVerifierIsRefusedBeforeAnythingIsFetched() throws IOException {
    Path trust = Files.writeString(work.resolve("sigstore.json"), "{}");

    assertThatThrownBy(() -> SigstoreTrust.load(trust))
        .isInstanceOfSatisfying(AcquisitionRefusedException.class, e -> assertThat(e.code()).isEqualTo(AcquisitionCodes.SIGSTORE_VERIFIER_MISSING))
        .hasMessageContaining(trust.toString())
        .hasMessageContaining("capability-acquire-sigstore");
  }

  @Test
  void findsTheOneRegisteredVerifier() throws IOException {
    try (URLClassLoader loader = registering(First.class)) {
      assertThat(SigstoreVerifiers.find(loader)).get().isInstanceOf(First.class);
    }
  }

  @Test
  void twoVerifiersWithOneIdAreRefusedNamingBothClasses() throws IOException {
    try (URLClassLoader loader = registering(First.class, SameId.class)) {
      assertThatThrownBy(() -> SigstoreVerifiers.find(loader))
          .isInstanceOfSatisfying(AcquisitionRefusedException.class, e -> assertThat(e.code()).isEqualTo(AcquisitionCodes.SIGSTORE_VERIFIER_DUPLICATE))
          .hasMessageContaining(First.class.getName())
          .hasMessageContaining(SameId.class.getName());
    }
  }

  @Test
  void verifiersOfDifferentIdsAreRefusedTooSinceNothingSaysWhichVerifies() throws IOException {
    try (URLClassLoader loader = registering(First.class, OtherId.class)) {
      assertThatThrownBy(() -> SigstoreVerifiers.find(loader))
          .isInstanceOfSatisfying(AcquisitionRefusedException.class, e -> assertThat(e.code()).isEqualTo(AcquisitionCodes.SIGSTORE_VERIFIER_DUPLICATE))
          .hasMessageContaining(First.class.getName())
          .hasMessageContaining(OtherId.class.getName());
    }
  }

  /** A class loader over this test's classes that registers {@code providers} in a services file. */
  private URLClassLoader registering(Class<?>... providers) throws IOException {
    Path services = Files.createDirectories(work.resolve("classes/META-INF/services"));
    Files.write(
        services.resolve(SigstoreVerifierProvider.class.getName()),
        Arrays.stream(providers).map(Class::getName).toList());
    return new URLClassLoader(new URL[] {work.resolve("classes").toUri().toURL()}, getClass().getClassLoader());
  }

  /** A verifier provider that verifies nothing; only its id and class matter here. */
  public static class First implements SigstoreVerifierProvider {
    @Override
    public String id() {
      return "test";
    }

    @Override
    public SigstoreBundleVerifier load(Path trustFile) {
      return (bundle, sha256, coordinates, what) -> refuse(coordinates, what);
    }

    static SigstoreOutcome refuse(Coordinates coordinates, String what) {
      return SigstoreOutcome.failed(AcquisitionCodes.SIGSTORE_SIGNATURE_INVALID, what + " of " + coordinates + " is not verified by a test");
    }
  }

  /** Another provider claiming {@link First}'s id. */
  public static final class SameId extends First {}

  /** A provider of another id. */
  public static final class OtherId extends First {
    @Override
    public String id() {
      return "other";
    }
  }
}
