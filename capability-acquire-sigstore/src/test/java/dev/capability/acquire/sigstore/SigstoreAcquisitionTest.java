package dev.capability.acquire.sigstore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capability.acquire.Acquisition;
import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.Check;
import dev.capability.acquire.Coordinates;
import dev.capability.acquire.Observations;
import dev.capability.acquire.PackageAcquirer;
import dev.capability.acquire.PackageAcquirerTest;
import dev.capability.acquire.PackageSources;
import dev.capability.acquire.PgpFixture;
import dev.capability.acquire.RepositoryFixture;
import dev.capability.acquire.SigstoreTrust;
import dev.capability.acquire.TrustPolicies;
import dev.capability.acquire.TrustPolicy;
import dev.capability.acquire.TrustScore;
import dev.capability.acquire.TrustedKeys;
import dev.capability.acquire.sigstore.SigstoreFixture.Defect;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Sigstore bundles beside artifacts on a real loopback repository, verified against a Sigstore
 * deployment (CA, CT log, transparency log) fabricated for the test; every attack is refused with
 * its own code and leaves nothing in the store.
 */
class SigstoreAcquisitionTest {
  private static final String COORDINATES = "com.example:hello:1.0.0@zip";
  private static final String PATH = "com/example/hello/1.0.0/hello-1.0.0.zip";
  private static final String ISSUER = "https://token.actions.githubusercontent.com";
  private static final String WORKFLOW = "https://github.com/example/hello/.github/workflows/release.yml@refs/tags/v1.0.0";
  private static final String REPOSITORY = "https://github.com/example/hello";
  private static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";

  private static final ObjectMapper JSON = new ObjectMapper();

  private static SigstoreFixture sigstore;
  private static PgpFixture releaseKey;
  private static byte[] packageBytes;

  @TempDir Path work;
  private RepositoryFixture repository;
  private Path store;
  private Path keyring;
  private Path trust;

  @BeforeAll
  static void makeDeploymentKeysAndPackage() {
    sigstore = SigstoreFixture.create();
    releaseKey = PgpFixture.generate("Hello Release <release@example.com>");
    packageBytes = PackageAcquirerTest.helloPackage("1.0.0");
  }

  @BeforeEach
  void startRepository() throws IOException {
    repository = new RepositoryFixture(Files.createDirectories(work.resolve("server")));
    store = work.resolve("store");
    Path operator = Files.createDirectories(work.resolve("operator"));
    sigstore.writeTrustedRoot(operator);
    trust = writeTrust(operator, "{\"issuer\": \"" + ISSUER + "\", \"subject\": \"" + WORKFLOW + "\", \"coordinates\": [\"com.example:hello\"]}");
    keyring = Files.writeString(operator.resolve("keyring.json"), """
        {"keys": [{"fingerprint": "%s", "publicKey": %s, "coordinates": ["com.example:hello"]}]}
        """.formatted(releaseKey.fingerprint(), json(releaseKey.armoredPublicKey())));
  }

  @AfterEach
  void stopRepository() {
    repository.close();
  }

  @Test
  void acceptsAStrictlyVerifiedPackageWhoseBundleVerifiesAndRecordsTheSigner() {
    publishSignedWithProvenance();
    publishBundle(sigstore.sign(packageBytes, ISSUER, WORKFLOW));

    Acquisition acquisition = acquirer(TrustPolicies.strict(), SigstoreTrust.load(trust)).acquire(Coordinates.parse(COORDINATES));

    assertThat(acquisition.accepted()).as(acquisition.decision().reason()).isTrue();
    Observations observations = acquisition.observations();
    assertThat(observations.sigstore().status()).as(observations.sigstore().detail()).isEqualTo(Check.Status.VERIFIED);
    assertThat(observations.sigstore().detail()).contains(WORKFLOW, ISSUER, "logged at index 3");
    assertThat(observations.sigstoreSigner()).contains(WORKFLOW + " (issuer " + ISSUER + ")");
    assertThat(acquisition.score().total()).isEqualTo(100);
    assertThat(acquisition.toJson()).contains("\"signer\":\"" + WORKFLOW + " (issuer " + ISSUER + ")\"");
  }

  @Test
  void aPolicyFileCanRequireSigstoreInsteadOfPgp() throws IOException {
    TrustPolicy sigstoreOnly = TrustPolicies.fromFile(Files.writeString(work.resolve("policy.json"),
        "{\"name\": \"sigstore-only\", \"requireIdentity\": true, \"requireSignature\": false, \"requireProvenance\": false, \"requireSigstore\": true}"));
    publishChecksummed(packageBytes);
    publishBundle(sigstore.sign(packageBytes, ISSUER, WORKFLOW));

    Acquisition acquisition = acquirer(sigstoreOnly, SigstoreTrust.load(trust)).acquire(Coordinates.parse(COORDINATES));

    assertThat(acquisition.accepted()).as(acquisition.decision().reason()).isTrue();
    assertThat(acquisition.observations().signature().status()).isEqualTo(Check.Status.ABSENT);
    assertThat(Files.readAllBytes(acquisition.stored().orElseThrow())).isEqualTo(packageBytes);
  }

  @Test
  void aPolicyThatRequiresSigstoreRefusesWithoutABundle() throws IOException {
    TrustPolicy sigstoreOnly = TrustPolicies.fromFile(Files.writeString(work.resolve("policy.json"),
        "{\"name\": \"sigstore-only\", \"requireSignature\": false, \"requireProvenance\": false, \"requireSigstore\": true}"));
    publishChecksummed(packageBytes);

    assertRefused(acquirer(sigstoreOnly, SigstoreTrust.load(trust)), AcquisitionCodes.SIGSTORE_MISSING);
  }

  @Test
  void withoutSigstoreTrustABundleIsRecordedUncheckedAndSatisfiesNoRequirement() throws IOException {
    publishChecksummed(packageBytes);
    publishBundle(sigstore.sign(packageBytes, ISSUER, WORKFLOW));

    Acquisition lenient = acquirer(TrustPolicies.standard(), SigstoreTrust.none()).acquire(Coordinates.parse(COORDINATES));
    assertThat(lenient.accepted()).isTrue();
    assertThat(lenient.observations().sigstore().status()).isEqualTo(Check.Status.UNVERIFIED);
    assertThat(lenient.observations().sigstore().code()).isEqualTo(AcquisitionCodes.SIGSTORE_UNCHECKED);
    assertThat(lenient.score().components()).filteredOn(component -> component.name().equals("sigstore"))
        .singleElement().extracting(TrustScore.Component::points).isEqualTo(0);

    TrustPolicy sigstoreOnly = TrustPolicies.fromFile(Files.writeString(work.resolve("policy.json"),
        "{\"name\": \"sigstore-only\", \"requireSignature\": false, \"requireProvenance\": false, \"requireSigstore\": true}"));
    store = work.resolve("another-store");
    assertRefused(acquirer(sigstoreOnly, SigstoreTrust.none()), AcquisitionCodes.SIGSTORE_UNCHECKED);
  }

  static Stream<Arguments> defects() {
    return Stream.of(
        Arguments.of(Defect.UNTRUSTED_CA, AcquisitionCodes.SIGSTORE_CERTIFICATE_UNTRUSTED),
        Arguments.of(Defect.NO_SCT, AcquisitionCodes.SIGSTORE_CERTIFICATE_UNTRUSTED),
        Arguments.of(Defect.SCT_FROM_UNKNOWN_LOG, AcquisitionCodes.SIGSTORE_CERTIFICATE_UNTRUSTED),
        Arguments.of(Defect.SET_FROM_UNKNOWN_KEY, AcquisitionCodes.SIGSTORE_TLOG_INVALID),
        Arguments.of(Defect.WRONG_ROOT_HASH, AcquisitionCodes.SIGSTORE_TLOG_INVALID),
        Arguments.of(Defect.CHECKPOINT_MISMATCH, AcquisitionCodes.SIGSTORE_TLOG_INVALID),
        Arguments.of(Defect.LOG_INDEX_MISMATCH, AcquisitionCodes.SIGSTORE_TLOG_INVALID),
        Arguments.of(Defect.CHECKPOINT_SIZE_MISMATCH, AcquisitionCodes.SIGSTORE_TLOG_INVALID),
        Arguments.of(Defect.INTEGRATED_AFTER_EXPIRY, AcquisitionCodes.SIGSTORE_TLOG_INVALID),
        Arguments.of(Defect.SIGNATURE_OVER_OTHER_BYTES, AcquisitionCodes.SIGSTORE_SIGNATURE_INVALID),
        Arguments.of(Defect.SECOND_SUBJECT, AcquisitionCodes.SIGSTORE_IDENTITY_UNKNOWN));
  }

  @ParameterizedTest
  @MethodSource("defects")
  void refusesEveryDefectiveBundleWithItsOwnCodeUnderEveryPolicy(Defect defect, String code) {
    publishSignedWithProvenance();
    publishBundle(sigstore.sign(packageBytes, ISSUER, WORKFLOW, defect));

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard(), SigstoreTrust.load(trust)), code);

    assertThat(acquisition.decision().policy()).isEqualTo("verification");
    assertThat(acquisition.observations().signature().isVerified()).isTrue();
  }

  @Test
  void refusesABundleFromAnotherSigstoreDeployment() {
    publishChecksummed(packageBytes);
    publishBundle(SigstoreFixture.create().sign(packageBytes, ISSUER, WORKFLOW));

    assertRefused(acquirer(TrustPolicies.standard(), SigstoreTrust.load(trust)), AcquisitionCodes.SIGSTORE_CERTIFICATE_UNTRUSTED);
  }

  @Test
  void refusesASignerTheOperatorDoesNotExpect() {
    publishChecksummed(packageBytes);
    publishBundle(sigstore.sign(packageBytes, ISSUER, "https://github.com/attacker/hello/.github/workflows/release.yml@refs/tags/v1.0.0"));

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard(), SigstoreTrust.load(trust)), AcquisitionCodes.SIGSTORE_IDENTITY_UNKNOWN);

    assertThat(acquisition.observations().sigstoreSigner()).hasValueSatisfying(signer -> assertThat(signer).contains("attacker"));
  }

  @Test
  void aSignerNamedByAUrlWithCredentialsIsReportedWithoutThem() {
    publishChecksummed(packageBytes);
    publishBundle(sigstore.sign(packageBytes, ISSUER, "https://ci:s3cret@github.com/attacker/hello/.github/workflows/release.yml?token=s3cret"));

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard(), SigstoreTrust.load(trust)), AcquisitionCodes.SIGSTORE_IDENTITY_UNKNOWN);

    assertThat(acquisition.observations().sigstoreSigner())
        .hasValueSatisfying(signer -> assertThat(signer).contains("https://redacted@github.com/attacker/").contains("?token=redacted"));
    assertThat(acquisition.observations().sigstore().detail()).contains("github.com/attacker").doesNotContain("s3cret");
    assertThat(acquisition.toJson()).doesNotContain("s3cret");
  }

  @Test
  void refusesTheExpectedSubjectVouchedForByAnotherIssuer() {
    publishChecksummed(packageBytes);
    publishBundle(sigstore.sign(packageBytes, "https://issuer.attacker.example", WORKFLOW));

    assertRefused(acquirer(TrustPolicies.standard(), SigstoreTrust.load(trust)), AcquisitionCodes.SIGSTORE_IDENTITY_UNKNOWN);
  }

  @Test
  void refusesAnExpectedSignerForCoordinatesItIsNotAuthorizedFor() throws IOException {
    Path otherProject = writeTrust(work.resolve("operator"),
        "{\"issuer\": \"" + ISSUER + "\", \"subject\": \"" + WORKFLOW + "\", \"coordinates\": [\"com.other:*\"]}");
    publishChecksummed(packageBytes);
    publishBundle(sigstore.sign(packageBytes, ISSUER, WORKFLOW));

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard(), SigstoreTrust.load(otherProject)), AcquisitionCodes.SIGSTORE_IDENTITY_NOT_AUTHORIZED);

    assertThat(acquisition.decision().reason()).contains("com.other:*");
  }

  @Test
  void aSubjectPatternAcceptsEveryReleaseTagOfTheExpectedWorkflow() throws IOException {
    Path tags = writeTrust(work.resolve("operator"), "{\"issuer\": \"" + ISSUER + "\", \"subjectPattern\": "
        + "\"https://github\\\\.com/example/hello/\\\\.github/workflows/release\\\\.yml@refs/tags/v[0-9.]+\", \"coordinates\": [\"com.example:hello\"]}");
    publishChecksummed(packageBytes);
    publishBundle(sigstore.sign(packageBytes, ISSUER, WORKFLOW));

    assertThat(acquirer(TrustPolicies.standard(), SigstoreTrust.load(tags)).acquire(Coordinates.parse(COORDINATES)).observations().sigstore().isVerified()).isTrue();

    publishBundle(sigstore.sign(packageBytes, ISSUER, WORKFLOW.replace("refs/tags/v1.0.0", "refs/heads/attacker")));
    store = work.resolve("another-store");
    assertRefused(acquirer(TrustPolicies.standard(), SigstoreTrust.load(tags)), AcquisitionCodes.SIGSTORE_IDENTITY_UNKNOWN);
  }

  @Test
  void aPinnedSourceRepositoryTellsTheProjectFromAnotherCallingTheSameSharedWorkflow() throws IOException {
    String shared = "https://github.com/builders/shared/.github/workflows/release.yml@refs/tags/v2.0.0";
    Path pinned = writeTrust(work.resolve("operator"), "{\"issuer\": \"" + ISSUER + "\", \"subject\": \"" + shared + "\", "
        + "\"sourceRepository\": \"" + REPOSITORY + "\", \"coordinates\": [\"com.example:hello\"]}");
    publishChecksummed(packageBytes);
    publishBundle(sigstore.sign(packageBytes, ISSUER, shared, REPOSITORY));

    Acquisition ours = acquirer(TrustPolicies.standard(), SigstoreTrust.load(pinned)).acquire(Coordinates.parse(COORDINATES));
    assertThat(ours.observations().sigstore().isVerified()).as(ours.observations().sigstore().detail()).isTrue();
    assertThat(ours.observations().sigstoreSigner()).hasValueSatisfying(signer -> assertThat(signer).contains("repository " + REPOSITORY));

    store = work.resolve("another-store");
    publishBundle(sigstore.sign(packageBytes, ISSUER, shared, "https://github.com/attacker/hello"));
    assertRefused(acquirer(TrustPolicies.standard(), SigstoreTrust.load(pinned)), AcquisitionCodes.SIGSTORE_IDENTITY_UNKNOWN);

    publishBundle(sigstore.sign(packageBytes, ISSUER, shared));
    assertRefused(acquirer(TrustPolicies.standard(), SigstoreTrust.load(pinned)), AcquisitionCodes.SIGSTORE_IDENTITY_UNKNOWN);
  }

  @Test
  void refusesAGoodBundleForOtherBytes() {
    publishChecksummed(packageBytes);
    publishBundle(sigstore.sign(PackageAcquirerTest.helloPackage("0.9.0"), ISSUER, WORKFLOW));

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard(), SigstoreTrust.load(trust)), AcquisitionCodes.SIGSTORE_SIGNATURE_INVALID);

    assertThat(acquisition.decision().reason()).contains("signs other bytes");
  }

  @Test
  void refusesTamperedBytesWhoseChecksumsWereReplacedToo() {
    byte[] tampered = PackageAcquirerTest.helloPackage("1.0.0");
    tampered[tampered.length - 1] ^= 1;
    publishChecksummed(tampered);
    publishBundle(sigstore.sign(packageBytes, ISSUER, WORKFLOW));

    assertRefused(acquirer(TrustPolicies.standard(), SigstoreTrust.load(trust)), AcquisitionCodes.SIGSTORE_SIGNATURE_INVALID);
  }

  @Test
  void refusesABundleThatIsNotOne() {
    publishChecksummed(packageBytes);
    repository.write(PATH + ".sigstore.json", "{\"mediaType\": \"application/vnd.dev.sigstore.bundle.v0.3+json\"}");

    assertRefused(acquirer(TrustPolicies.standard(), SigstoreTrust.load(trust)), AcquisitionCodes.SIGSTORE_BUNDLE_INVALID);
  }

  @Test
  void refusesABundleWithASecondLogEntryRatherThanChoosingOne() throws IOException {
    publishChecksummed(packageBytes);
    ObjectNode bundle = (ObjectNode) JSON.readTree(sigstore.sign(packageBytes, ISSUER, WORKFLOW).bundleJson());
    ArrayNode entries = (ArrayNode) bundle.path("verificationMaterial").path("tlogEntries");
    entries.add(entries.get(0).deepCopy());
    repository.write(PATH + ".sigstore.json", JSON.writeValueAsBytes(bundle));

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard(), SigstoreTrust.load(trust)), AcquisitionCodes.SIGSTORE_BUNDLE_INVALID);

    assertThat(acquisition.decision().reason()).contains("2 transparency-log entries");
  }

  @Test
  void refusesAnAttestationByTheExpectedSignerAsASignatureOfThePackage() {
    publishChecksummed(packageBytes);
    publishBundle(sigstore.attest(packageBytes, ISSUER, WORKFLOW, "https://example.com/scan-result/v1"));

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard(), SigstoreTrust.load(trust)), AcquisitionCodes.SIGSTORE_BUNDLE_INVALID);

    assertThat(acquisition.decision().reason()).contains("DSSE");
  }

  @Test
  void refusesABundleCarryingTimestampsSigstoreJavaCannotVerify() throws IOException {
    publishChecksummed(packageBytes);
    ObjectNode bundle = (ObjectNode) JSON.readTree(sigstore.sign(packageBytes, ISSUER, WORKFLOW).bundleJson());
    ((ObjectNode) bundle.path("verificationMaterial")).putObject("timestampVerificationData").putArray("rfc3161Timestamps")
        .addObject().put("signedTimestamp", java.util.Base64.getEncoder().encodeToString("not a timestamp".getBytes(StandardCharsets.UTF_8)));
    repository.write(PATH + ".sigstore.json", JSON.writeValueAsBytes(bundle));

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard(), SigstoreTrust.load(trust)), AcquisitionCodes.SIGSTORE_SIGNATURE_INVALID);

    assertThat(acquisition.decision().reason()).contains("timestamp");
  }

  @Test
  void refusesABundleWhoseCertificateWasSwappedForAnotherSignersOfTheSameDeployment() throws IOException {
    publishChecksummed(packageBytes);
    ObjectNode bundle = (ObjectNode) JSON.readTree(sigstore.sign(packageBytes, ISSUER, WORKFLOW).bundleJson());
    JsonNode otherCertificate = JSON.readTree(sigstore.sign(packageBytes, ISSUER, WORKFLOW).bundleJson()).path("verificationMaterial").path("certificate");
    ((ObjectNode) bundle.path("verificationMaterial")).set("certificate", otherCertificate);
    repository.write(PATH + ".sigstore.json", JSON.writeValueAsBytes(bundle));

    assertRefused(acquirer(TrustPolicies.standard(), SigstoreTrust.load(trust)), AcquisitionCodes.SIGSTORE_SIGNATURE_INVALID);
  }

  private Acquisition assertRefused(PackageAcquirer acquirer, String code) {
    Acquisition acquisition = acquirer.acquire(Coordinates.parse(COORDINATES));
    assertThat(acquisition.accepted()).as(acquisition.decision().reason()).isFalse();
    assertThat(acquisition.decision().code()).as(acquisition.decision().reason()).isEqualTo(code);
    assertThat(acquisition.stored()).isEmpty();
    if (Files.exists(store)) {
      try (Stream<Path> files = Files.walk(store)) {
        assertThat(files.filter(Files::isRegularFile).toList()).as("files left in the store").isEmpty();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return acquisition;
  }

  private PackageAcquirer acquirer(TrustPolicy policy, SigstoreTrust sigstoreTrust) {
    return PackageAcquirer.builder(PackageSources.mavenRepository(repository.uri(), true), store)
        .keys(TrustedKeys.load(keyring))
        .sigstore(sigstoreTrust)
        .policy(policy)
        .expectedRepository(REPOSITORY)
        .build();
  }

  private static Path writeTrust(Path directory, String identity) throws IOException {
    return Files.writeString(directory.resolve("sigstore-" + Integer.toHexString(identity.hashCode()) + ".json"),
        "{\"trustedRoot\": \"trusted_root.json\", \"identities\": [" + identity + "]}");
  }

  private void publishChecksummed(byte[] bytes) {
    repository.write(PATH, bytes);
    repository.write(PATH + ".sha256", RepositoryFixture.hex("SHA-256", bytes));
    repository.write(PATH + ".sha512", RepositoryFixture.hex("SHA-512", bytes));
  }

  private void publishSignedWithProvenance() {
    publishChecksummed(packageBytes);
    repository.write(PATH + ".asc", releaseKey.sign(packageBytes));
    byte[] statement = PackageAcquirerTest.provenance(RepositoryFixture.hex("SHA-256", packageBytes), "git+" + REPOSITORY + "@refs/heads/main", COMMIT);
    repository.write(PATH + ".intoto.json", statement);
    repository.write(PATH + ".intoto.json.asc", releaseKey.sign(statement));
  }

  private void publishBundle(SigstoreFixture.Signed signed) {
    repository.write(PATH + ".sigstore.json", signed.bundleJson().getBytes(StandardCharsets.UTF_8));
  }

  private static String json(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\r", "\\r").replace("\n", "\\n") + "\"";
  }
}
