package dev.capability.acquire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** npm acquisition against a real loopback registry with ECDSA registry keys made at test time. */
class NpmAcquirerTest {
  private static final String KEY_ID = "SHA256:test-registry-key";
  private static KeyPair registryKey;
  private static KeyPair strangerKey;

  @TempDir Path work;
  private RepositoryFixture registry;
  private Path store;
  private Path keys;
  private byte[] tarball;

  @BeforeAll
  static void makeKeys() throws GeneralSecurityException {
    registryKey = p256();
    strangerKey = p256();
  }

  @BeforeEach
  void startRegistry() throws IOException {
    registry = new RepositoryFixture(Files.createDirectories(work.resolve("server")));
    store = work.resolve("store");
    keys = work.resolve("npm-keys.json");
    writeKeys(KEY_ID, registryKey, "null");
    tarball = "a gzip tarball would be here; acquisition never opens it".getBytes(StandardCharsets.UTF_8);
  }

  @AfterEach
  void stopRegistry() {
    registry.close();
  }

  @Test
  void acquiresAVersionSignedByThePinnedRegistryKey() throws IOException {
    publish(manifest(integrity(tarball), sign(registryKey, integrity(tarball)), KEY_ID, tarballUrl(), ""));

    Acquisition acquisition = acquirer(TrustPolicies.standard()).acquire(NpmCoordinates.parse("hello-cap@1.0.0"));

    assertThat(acquisition.accepted()).as(acquisition.decision().reason()).isTrue();
    assertThat(Files.readAllBytes(acquisition.stored().orElseThrow())).isEqualTo(tarball);
    assertThat(acquisition.observations().coordinates()).isEqualTo("npm:hello-cap@1.0.0");
    assertThat(acquisition.observations().integrity().isVerified()).isTrue();
    assertThat(acquisition.observations().signature().isVerified()).isTrue();
    assertThat(acquisition.observations().signingKey()).contains(KEY_ID);
    assertThat(acquisition.score().total()).isEqualTo(55);
  }

  @Test
  void strictCannotBeMetWithoutVerifiedProvenanceEvenWhenAttestationsAreListed() {
    publish(manifest(integrity(tarball), sign(registryKey, integrity(tarball)), KEY_ID, tarballUrl(),
        ",\"attestations\":{\"url\":\"https://registry.example/-/npm/v1/attestations/hello-cap@1.0.0\",\"provenance\":{\"predicateType\":\"https://slsa.dev/provenance/v1\"}}"));

    Acquisition acquisition = acquirer(TrustPolicies.strict()).acquire(NpmCoordinates.parse("hello-cap@1.0.0"));

    assertThat(acquisition.decision().code()).isEqualTo(AcquisitionCodes.PROVENANCE_NOT_VERIFIED);
    assertThat(acquisition.observations().sigstore().status()).isEqualTo(Check.Status.UNVERIFIED);
    assertStoreEmpty();
  }

  @Test
  void refusesATamperedTarball() {
    publish(manifest(integrity(tarball), sign(registryKey, integrity(tarball)), KEY_ID, tarballUrl(), ""));
    registry.write("hello-cap/-/hello-cap-1.0.0.tgz", "other bytes".getBytes(StandardCharsets.UTF_8));

    assertRefused(AcquisitionCodes.CHECKSUM_MISMATCH);
  }

  @Test
  void aShasumAloneIsNotIntegrity() {
    registry.write("hello-cap/-/hello-cap-1.0.0.tgz", tarball);
    registry.write("hello-cap/1.0.0", """
        {"name":"hello-cap","version":"1.0.0","dist":{"tarball":"%s","shasum":"%s"}}
        """.formatted(tarballUrl(), RepositoryFixture.hex("SHA-1", tarball)));

    assertRefused(AcquisitionCodes.CHECKSUM_WEAK_ONLY);
  }

  @Test
  void refusesASignatureByAnUnpinnedKey() {
    publish(manifest(integrity(tarball), sign(strangerKey, integrity(tarball)), "SHA256:stranger", tarballUrl(), ""));

    assertRefused(AcquisitionCodes.SIGNATURE_UNKNOWN_KEY);
  }

  @Test
  void refusesASignatureOverAnotherIntegrity() {
    publish(manifest(integrity(tarball), sign(registryKey, integrity("other".getBytes(StandardCharsets.UTF_8))), KEY_ID, tarballUrl(), ""));

    assertRefused(AcquisitionCodes.SIGNATURE_INVALID);
  }

  @Test
  void refusesASignatureByAnExpiredRegistryKey() throws IOException {
    writeKeys(KEY_ID, registryKey, "\"2020-01-01T00:00:00Z\"");
    publish(manifest(integrity(tarball), sign(registryKey, integrity(tarball)), KEY_ID, tarballUrl(), ""));

    assertRefused(AcquisitionCodes.SIGNATURE_KEY_EXPIRED);
  }

  @Test
  void refusesATarballOutsideTheRegistryOrigin() {
    publish(manifest(integrity(tarball), sign(registryKey, integrity(tarball)), KEY_ID, "https://evil.example/hello-cap-1.0.0.tgz", ""));

    assertThatThrownBy(() -> acquirer(TrustPolicies.standard()).acquire(NpmCoordinates.parse("hello-cap@1.0.0")))
        .isInstanceOf(AcquisitionRefusedException.class)
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.NPM_TARBALL_ORIGIN);
    assertStoreEmpty();
  }

  @Test
  void refusesAManifestForAnotherVersion() {
    registry.write("hello-cap/1.0.0", "{\"name\":\"hello-cap\",\"version\":\"1.0.1\",\"dist\":{}}");

    assertThatThrownBy(() -> acquirer(TrustPolicies.standard()).acquire(NpmCoordinates.parse("hello-cap@1.0.0")))
        .isInstanceOf(AcquisitionRefusedException.class)
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.IDENTITY_MISMATCH);
    assertStoreEmpty();
  }

  @Test
  void recordsLifecycleScriptsAndRunsNone() {
    Path marker = work.resolve("postinstall-ran");
    publish(manifest(integrity(tarball), sign(registryKey, integrity(tarball)), KEY_ID, tarballUrl(), "")
        .replace("\"dist\":", "\"scripts\":{\"postinstall\":\"touch " + marker + "\",\"test\":\"true\"},\"dist\":"));

    Acquisition acquisition = acquirer(TrustPolicies.standard()).acquire(NpmCoordinates.parse("hello-cap@1.0.0"));

    assertThat(acquisition.accepted()).isTrue();
    assertThat(acquisition.observations().identity().detail()).contains("[postinstall]").contains("never runs");
    assertThat(marker).doesNotExist();
  }

  @ParameterizedTest
  @CsvSource({
      "hello@^1.0.0, COORDINATES_RANGE",
      "hello@~1.2.3, COORDINATES_RANGE",
      "hello@>=1.0.0, COORDINATES_RANGE",
      "hello@1.x, COORDINATES_RANGE",
      "hello@*, COORDINATES_RANGE",
      "hello@1, COORDINATES_RANGE",
      "hello@1.2, COORDINATES_RANGE",
      "hello@1.0.0 || 2.0.0, COORDINATES_RANGE",
      "hello@latest, COORDINATES_NOT_EXACT",
      "hello@next, COORDINATES_NOT_EXACT",
      "Hello@1.0.0, COORDINATES_MALFORMED",
      "../hello@1.0.0, COORDINATES_MALFORMED",
      "@scope/../x@1.0.0, COORDINATES_MALFORMED",
      "hello, COORDINATES_MALFORMED",
      "hello@01.0.0, COORDINATES_MALFORMED",
  })
  void refusesAnythingButAnExactVersion(String text, String code) {
    assertThatThrownBy(() -> NpmCoordinates.parse(text))
        .isInstanceOf(AcquisitionRefusedException.class)
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(code);
  }

  @ParameterizedTest
  @CsvSource({
      "^1.0.0, COORDINATES_RANGE",
      "~1, COORDINATES_RANGE",
      "1.x, COORDINATES_RANGE",
      "1.0.X, COORDINATES_RANGE",
      "1.0.*, COORDINATES_RANGE",
      "x, COORDINATES_RANGE",
      "*, COORDINATES_RANGE",
      ">=1, COORDINATES_RANGE",
      "<2.0.0, COORDINATES_RANGE",
      "=1.0.0, COORDINATES_RANGE",
      "1.0.0 - 2.0.0, COORDINATES_RANGE",
      "1, COORDINATES_RANGE",
      "latest, COORDINATES_NOT_EXACT",
      "LATEST, COORDINATES_NOT_EXACT",
      "next, COORDINATES_NOT_EXACT",
      "v1.0.0, COORDINATES_NOT_EXACT",
  })
  void refusesEveryRangeAndTagBeforeAnyRequestReachesTheRegistry(String version, String code) {
    publish(manifest(integrity(tarball), sign(registryKey, integrity(tarball)), KEY_ID, tarballUrl(), ""));

    assertThatThrownBy(() -> acquirer(TrustPolicies.standard()).acquire(NpmCoordinates.parse("hello-cap@" + version)))
        .isInstanceOf(AcquisitionRefusedException.class)
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(code);
    assertThat(registry.requests()).as("requests that reached the registry").isEmpty();
  }

  @Test
  void parsesScopedNamesAndPrereleases() {
    NpmCoordinates scoped = NpmCoordinates.parse("@acme/hello-cap@1.0.0-rc.1+build.5");

    assertThat(scoped.name()).isEqualTo("@acme/hello-cap");
    assertThat(scoped.version()).isEqualTo("1.0.0-rc.1+build.5");
    assertThat(scoped.encodedName()).isEqualTo("@acme%2fhello-cap");
  }

  @Test
  void aTarballSignedInItsQueryIsFetchedButRecordedWithoutTheSignature() {
    publish(manifest(integrity(tarball), sign(registryKey, integrity(tarball)), KEY_ID, tarballUrl() + "?token=s3cret&v=1", ""));

    Acquisition acquisition = acquirer(TrustPolicies.standard()).acquire(NpmCoordinates.parse("hello-cap@1.0.0"));

    assertThat(acquisition.accepted()).as(acquisition.decision().reason()).isTrue();
    assertThat(acquisition.observations().fetched()).extracting(Fetch::location).contains(tarballUrl() + "?token=redacted&v=1");
    assertThat(acquisition.toJson()).contains(registry.uri().getAuthority()).doesNotContain("s3cret");
  }

  @Test
  void aTarballThatIsMissingIsNamedWithoutTheSignatureInItsQuery() {
    publish(manifest(integrity(tarball), sign(registryKey, integrity(tarball)), KEY_ID, tarballUrl() + ".gone?sig=s3cret", ""));

    assertThatThrownBy(() -> acquirer(TrustPolicies.standard()).acquire(NpmCoordinates.parse("hello-cap@1.0.0")))
        .isInstanceOf(AcquisitionRefusedException.class)
        .hasMessageContaining(tarballUrl() + ".gone?sig=redacted")
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void aTarballWithUserInformationIsRefusedWithoutRepeatingIt() {
    String withUser = tarballUrl().replace("http://", "http://npm:s3cret@");
    publish(manifest(integrity(tarball), sign(registryKey, integrity(tarball)), KEY_ID, withUser, ""));

    assertThatThrownBy(() -> acquirer(TrustPolicies.standard()).acquire(NpmCoordinates.parse("hello-cap@1.0.0")))
        .isInstanceOf(AcquisitionRefusedException.class)
        .hasMessageContaining(tarballUrl().replace("http://", "http://redacted@"))
        .hasMessageNotContaining("s3cret")
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.NPM_TARBALL_ORIGIN);
  }

  @Test
  void aRegistryWithUserInformationIsRefusedWithoutRepeatingIt() {
    URI withUser = URI.create(registry.uri().toString().replace("http://", "http://user:s3cret@"));

    assertThatThrownBy(() -> NpmAcquirer.builder(withUser, store).allowHttpLoopback(true).build())
        .isInstanceOf(AcquisitionRefusedException.class)
        .hasMessageContaining("http://redacted@" + registry.uri().getAuthority())
        .hasMessageNotContaining("s3cret");
  }

  private void assertRefused(String code) {
    Acquisition acquisition = acquirer(TrustPolicies.standard()).acquire(NpmCoordinates.parse("hello-cap@1.0.0"));
    assertThat(acquisition.accepted()).isFalse();
    assertThat(acquisition.decision().code()).as(acquisition.decision().reason()).isEqualTo(code);
    assertStoreEmpty();
  }

  private void assertStoreEmpty() {
    if (!Files.exists(store)) {
      return;
    }
    try (Stream<Path> files = Files.walk(store)) {
      assertThat(files.filter(Files::isRegularFile).toList()).isEmpty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private NpmAcquirer acquirer(TrustPolicy policy) {
    return NpmAcquirer.builder(registry.uri(), store)
        .allowHttpLoopback(true)
        .keys(NpmRegistryKeys.load(keys))
        .policy(policy)
        .build();
  }

  private void publish(String manifest) {
    registry.write("hello-cap/-/hello-cap-1.0.0.tgz", tarball);
    registry.write("hello-cap/1.0.0", manifest);
  }

  private String tarballUrl() {
    return registry.uri() + "hello-cap/-/hello-cap-1.0.0.tgz";
  }

  private static String manifest(String integrity, String signature, String keyId, String tarballUrl, String extraDist) {
    return """
        {"name":"hello-cap","version":"1.0.0","dist":{"tarball":"%s","integrity":"%s","signatures":[{"keyid":"%s","sig":"%s"}]%s}}
        """.formatted(tarballUrl, integrity, keyId, signature, extraDist);
  }

  private void writeKeys(String keyId, KeyPair key, String expires) throws IOException {
    Files.writeString(keys, """
        {"keys":[{"keyid":"%s","keytype":"ecdsa-sha2-nistp256","scheme":"ecdsa-sha2-nistp256","key":"%s","expires":%s}]}
        """.formatted(keyId, Base64.getEncoder().encodeToString(key.getPublic().getEncoded()), expires));
  }

  private static String integrity(byte[] bytes) {
    try {
      return "sha512-" + Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-512").digest(bytes));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String sign(KeyPair key, String integrity) {
    try {
      Signature signer = Signature.getInstance("SHA256withECDSA");
      signer.initSign(key.getPrivate());
      signer.update(("hello-cap@1.0.0:" + integrity).getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(signer.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static KeyPair p256() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }
}
