package dev.capability.acquire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.capability.runtime.CapabilityPackages;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.sig.KeyFlags;
import org.bouncycastle.openpgp.PGPSignature;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

public class PackageAcquirerTest {
  private static final String COORDINATES = "com.example:hello:1.0.0@zip";
  private static final String PATH = "com/example/hello/1.0.0/hello-1.0.0.zip";
  private static final String REPOSITORY = "https://github.com/example/hello";
  private static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";
  private static final String POM = "com/example/hello/1.0.0/hello-1.0.0.pom";

  private static PgpFixture releaseKey;
  private static PgpFixture otherProjectKey;
  private static PgpFixture strangerKey;
  private static byte[] packageBytes;

  @TempDir Path work;
  private RepositoryFixture repository;
  private Path store;
  private Path keyring;

  @BeforeAll
  static void makeKeysAndPackage() {
    releaseKey = PgpFixture.generate("Hello Release <release@example.com>");
    otherProjectKey = PgpFixture.generate("Other Project <release@other.example>");
    strangerKey = PgpFixture.generate("Stranger <stranger@example.net>");
    packageBytes = helloPackage("1.0.0");
  }

  @BeforeEach
  void startRepository() throws IOException {
    repository = new RepositoryFixture(Files.createDirectories(work.resolve("server")));
    store = work.resolve("store");
    keyring = work.resolve("keyring.json");
    Files.writeString(keyring, """
        {"keys": [
          {"fingerprint": "%s", "publicKey": %s, "coordinates": ["com.example:hello"]},
          {"fingerprint": "%s", "publicKeyFile": "other.asc", "coordinates": ["com.other.*:*"]}
        ]}
        """.formatted(releaseKey.fingerprint(), json(releaseKey.armoredPublicKey()), otherProjectKey.fingerprint()));
    Files.writeString(work.resolve("other.asc"), otherProjectKey.armoredPublicKey());
  }

  @AfterEach
  void stopRepository() {
    repository.close();
  }

  @Test
  void acquiresASignedPackageWithProvenanceUnderTheStrictPolicy() throws IOException {
    publishGood();

    Acquisition acquisition = acquirer(TrustPolicies.strict()).acquire(Coordinates.parse(COORDINATES));

    assertThat(acquisition.accepted()).as(acquisition.decision().reason()).isTrue();
    String sha256 = RepositoryFixture.hex("SHA-256", packageBytes);
    assertThat(acquisition.stored()).contains(store.resolve("sha256").resolve(sha256));
    assertThat(Files.readAllBytes(acquisition.stored().orElseThrow())).isEqualTo(packageBytes);
    Observations observations = acquisition.observations();
    assertThat(observations.sha256()).isEqualTo(sha256);
    assertThat(observations.integrity().isVerified()).isTrue();
    assertThat(observations.identity().isVerified()).as(observations.identity().detail()).isTrue();
    assertThat(observations.signature().isVerified()).isTrue();
    assertThat(observations.signingKey()).contains(releaseKey.fingerprint());
    assertThat(observations.provenance().isVerified()).as(observations.provenance().detail()).isTrue();
    assertThat(observations.repository()).contains(REPOSITORY);
    assertThat(observations.commit()).contains(COMMIT);
    assertThat(observations.sigstore().status()).isEqualTo(Check.Status.ABSENT);
    assertThat(observations.fetched()).first().satisfies(fetch -> {
      assertThat(fetch.location()).isEqualTo(repository.uri() + PATH);
      assertThat(fetch.sha256()).isEqualTo(sha256);
    });
    assertThat(acquisition.score().total()).isEqualTo(85);
    assertThat(acquisition.score().max()).isEqualTo(100);
    assertThat(CapabilityPackages.open(acquisition.stored().orElseThrow()).descriptor().name()).isEqualTo("hello");
    assertThat(Files.readString(store.resolve("observations").resolve(sha256 + ".json")))
        .isEqualTo(acquisition.toJson())
        .contains("\"key\":\"" + releaseKey.fingerprint() + "\"")
        .contains("\"commit\":\"" + COMMIT + "\"")
        .contains("\"advisory\":true");
  }

  @Test
  void refusesAPackageThatDeclaresAnotherVersionThanItsCoordinates() {
    byte[] other = helloPackage("2.0.0");
    publish(other);

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.IDENTITY_MISMATCH);
    assertThat(acquisition.observations().identity().detail()).contains("'2.0.0'");
  }

  @Test
  void theStrictPolicyRequiresAnInspectablePackageThatTheDefaultOnlyRecords() {
    publish("not a capability package".getBytes(StandardCharsets.UTF_8));

    assertRefused(acquirer(TrustPolicies.strict()), AcquisitionCodes.IDENTITY_UNCHECKED);
    Acquisition lenient = acquirer(TrustPolicies.standard()).acquire(Coordinates.parse(COORDINATES));
    assertThat(lenient.accepted()).isTrue();
    assertThat(lenient.observations().identity().status()).isEqualTo(Check.Status.UNVERIFIED);
  }

  @Test
  void acquiringTheSameBytesAgainStoresThemOnce() throws IOException {
    publishGood();

    Acquisition first = acquirer(TrustPolicies.strict()).acquire(Coordinates.parse(COORDINATES));
    Acquisition second = acquirer(TrustPolicies.strict()).acquire(Coordinates.parse(COORDINATES));

    assertThat(second.accepted()).isTrue();
    assertThat(second.stored()).isEqualTo(first.stored());
    try (Stream<Path> files = Files.walk(store.resolve("sha256"))) {
      assertThat(files.filter(Files::isRegularFile).toList()).hasSize(1);
    }
    assertThat(Files.getPosixFilePermissions(second.stored().orElseThrow()))
        .doesNotContain(PosixFilePermission.OWNER_WRITE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);
    try (Stream<Path> files = Files.walk(store.resolve("tmp"))) {
      assertThat(files.filter(Files::isRegularFile).toList()).isEmpty();
    }
  }

  @Test
  void refusesProvenanceNamingARepositoryWithControlCharacters() {
    publishGood();
    publishProvenance(provenance(RepositoryFixture.hex("SHA-256", packageBytes), "git+https://github.com/example/hello\\u001b[2J", COMMIT));

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.PROVENANCE_INVALID);
  }

  @Test
  void refusesTamperedBytes() {
    publishGood();
    byte[] tampered = packageBytes.clone();
    tampered[tampered.length / 2] ^= 1;
    repository.write(PATH, tampered);

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.CHECKSUM_MISMATCH);
  }

  @Test
  void refusesAWrongChecksumEvenWhenTheOtherOneMatches() {
    publishGood();
    repository.write(PATH + ".sha256", RepositoryFixture.hex("SHA-256", "other".getBytes(StandardCharsets.UTF_8)));

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.CHECKSUM_MISMATCH);
  }

  @Test
  void aWrongSha1IsAMismatchToo() {
    publishGood();
    repository.write(PATH + ".sha1", RepositoryFixture.hex("SHA-1", "other".getBytes(StandardCharsets.UTF_8)));

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.CHECKSUM_MISMATCH);
  }

  @Test
  void refusesMissingChecksumsUnderEveryPolicy() {
    publishGood();
    repository.delete(PATH + ".sha256");
    repository.delete(PATH + ".sha512");

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.CHECKSUM_MISSING);
    assertRefused(acquirer(TrustPolicies.strict()), AcquisitionCodes.CHECKSUM_MISSING);
  }

  @Test
  void sha1AndMd5AloneAreNotIntegrity() {
    publishGood();
    repository.delete(PATH + ".sha256");
    repository.delete(PATH + ".sha512");
    repository.write(PATH + ".sha1", RepositoryFixture.hex("SHA-1", packageBytes));
    repository.write(PATH + ".md5", RepositoryFixture.hex("MD5", packageBytes) + "  hello-1.0.0.zip\n");

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.CHECKSUM_WEAK_ONLY);
  }

  @Test
  void aMalformedChecksumFileIsRefused() {
    publishGood();
    repository.write(PATH + ".sha512", "not a digest");

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.CHECKSUM_MALFORMED);
  }

  @Test
  void refusesASignatureByAnUnknownKeyEvenWhenNoSignatureIsRequired() {
    publishGood();
    repository.write(PATH + ".asc", strangerKey.sign(packageBytes));

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.SIGNATURE_UNKNOWN_KEY);
    assertThat(acquisition.decision().policy()).isEqualTo("verification");
  }

  @Test
  void refusesASignatureByATrustedKeyNotMappedToTheseCoordinates() {
    publishGood();
    repository.write(PATH + ".asc", otherProjectKey.sign(packageBytes));

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.SIGNATURE_KEY_NOT_AUTHORIZED);
    assertThat(acquisition.observations().signingKey()).contains(otherProjectKey.fingerprint());
  }

  @Test
  void refusesASignatureMadeAfterTheKeyExpired() throws IOException {
    long day = 24 * 3600;
    PgpFixture expired = PgpFixture.generate("Expired <expired@example.com>", new Date(System.currentTimeMillis() - 3 * day * 1000), day);
    Files.writeString(keyring, """
        {"keys": [{"fingerprint": "%s", "publicKey": %s, "coordinates": ["com.example:hello"]}]}
        """.formatted(expired.fingerprint(), json(expired.armoredPublicKey())));
    publishGood();
    repository.write(PATH + ".asc", expired.sign(packageBytes));

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.SIGNATURE_KEY_EXPIRED);
    assertThat(acquisition.observations().signingKey()).contains(expired.fingerprint());
  }

  @Test
  void refusesASignatureOverOtherBytes() {
    publishGood();
    repository.write(PATH + ".asc", releaseKey.sign("other bytes".getBytes(StandardCharsets.UTF_8)));

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.SIGNATURE_INVALID);
  }

  @Test
  void refusesASignatureWithAWeakHash() {
    publishGood();
    repository.write(PATH + ".asc", releaseKey.sign(packageBytes, HashAlgorithmTags.SHA1));

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.SIGNATURE_INVALID);
  }

  @Test
  void refusesACompressedSignatureFileWithoutInflatingIt() {
    publishGood();
    repository.write(PATH + ".asc", releaseKey.signCompressed(packageBytes));

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.SIGNATURE_INVALID);
  }

  @Test
  void refusesTwoSignaturesInOneFile() {
    publishGood();
    byte[] first = releaseKey.sign(packageBytes);
    byte[] second = strangerKey.sign(packageBytes);
    byte[] both = new byte[first.length + second.length];
    System.arraycopy(first, 0, both, 0, first.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    repository.write(PATH + ".asc", both);

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.SIGNATURE_INVALID);
  }

  @Test
  void refusesAGarbledSignatureFile() {
    publishGood();
    repository.write(PATH + ".asc", "-----BEGIN PGP SIGNATURE-----\n\nnot base64 at all\n-----END PGP SIGNATURE-----\n");

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.SIGNATURE_INVALID);
  }

  @Test
  void theStrictPolicyRefusesAMissingSignatureThatTheDefaultOnlyRecords() {
    publishGood();
    repository.delete(PATH + ".asc");

    assertRefused(acquirer(TrustPolicies.strict()), AcquisitionCodes.SIGNATURE_MISSING);
    Acquisition lenient = acquirer(TrustPolicies.standard()).acquire(Coordinates.parse(COORDINATES));
    assertThat(lenient.accepted()).isTrue();
    assertThat(lenient.observations().signature().status()).isEqualTo(Check.Status.ABSENT);
  }

  @Test
  void aHighScoreDoesNotPassTheStrictPolicyWithoutASignature() {
    publishGood();
    repository.delete(PATH + ".asc");
    repository.write(PATH + ".sigstore.json", "{\"mediaType\":\"application/vnd.dev.sigstore.bundle.v0.3+json\"}");

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.strict()), AcquisitionCodes.SIGNATURE_MISSING);

    assertThat(acquisition.score().total()).isEqualTo(55);
    assertThat(acquisition.score().components()).extracting(TrustScore.Component::name)
        .containsExactly("integrity", "signature", "provenance", "sigstore");
    assertThat(acquisition.observations().sigstore().status()).isEqualTo(Check.Status.UNVERIFIED);
    assertThat(acquisition.observations().sigstore().code()).isEqualTo(AcquisitionCodes.SIGSTORE_UNCHECKED);
  }

  @Test
  void noPolicyCanAcceptAFailedCheck() {
    publishGood();
    repository.write(PATH + ".sha512", RepositoryFixture.hex("SHA-512", "other".getBytes(StandardCharsets.UTF_8)));
    TrustPolicy acceptEverything = new TrustPolicy() {
      @Override
      public String name() {
        return "accept-everything";
      }

      @Override
      public TrustDecision decide(Observations observations) {
        return TrustDecision.accept(name(), "anything goes");
      }
    };

    Acquisition acquisition = assertRefused(acquirer(acceptEverything), AcquisitionCodes.CHECKSUM_MISMATCH);
    assertThat(acquisition.decision().policy()).isEqualTo("verification");
  }

  @Test
  void refusesProvenanceForAnotherDigest() {
    publishGood();
    publishProvenance(provenance(RepositoryFixture.hex("SHA-256", "other".getBytes(StandardCharsets.UTF_8)), "git+" + REPOSITORY + "@refs/heads/main", COMMIT));

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.PROVENANCE_SUBJECT_MISMATCH);
  }

  @Test
  void refusesProvenanceFromAnotherRepository() {
    publishGood();
    publishProvenance(provenance(RepositoryFixture.hex("SHA-256", packageBytes), "git+https://github.com/attacker/hello@refs/heads/main", COMMIT));

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.PROVENANCE_REPOSITORY_MISMATCH);
    assertThat(acquisition.observations().repository()).contains("https://github.com/attacker/hello");
  }

  @Test
  void refusesProvenanceWhoseCommitIsNotFortyHexDigits() {
    publishGood();
    publishProvenance(provenance(RepositoryFixture.hex("SHA-256", packageBytes), "git+" + REPOSITORY, "main"));

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.PROVENANCE_COMMIT_INVALID);
  }

  @Test
  void refusesProvenanceForAnotherCommitThanExpected() {
    publishGood();

    Acquisition acquisition = PackageAcquirer.builder(PackageSources.mavenRepository(repository.uri(), true), store)
        .keys(TrustedKeys.load(keyring))
        .policy(TrustPolicies.strict())
        .expectedRepository(REPOSITORY)
        .expectedCommit("fedcba9876543210fedcba9876543210fedcba98")
        .build()
        .acquire(Coordinates.parse(COORDINATES));

    assertThat(acquisition.decision().code()).isEqualTo(AcquisitionCodes.PROVENANCE_COMMIT_MISMATCH);
    assertStoreEmpty();
  }

  @Test
  void refusesProvenanceSignedByAnUntrustedKey() {
    publishGood();
    repository.write(PATH + ".intoto.json.asc", strangerKey.sign(provenance(RepositoryFixture.hex("SHA-256", packageBytes), "git+" + REPOSITORY, COMMIT)));

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.PROVENANCE_SIGNATURE_INVALID);
  }

  @Test
  void theStrictPolicyRequiresProvenanceThatIsPresentAndSigned() {
    publishGood();
    repository.delete(PATH + ".intoto.json.asc");
    assertRefused(acquirer(TrustPolicies.strict()), AcquisitionCodes.PROVENANCE_UNSIGNED);

    repository.delete(PATH + ".intoto.json");
    assertRefused(acquirer(TrustPolicies.strict()), AcquisitionCodes.PROVENANCE_MISSING);
  }

  @Test
  void theStrictPolicyRequiresAnExpectedRepository() {
    publishGood();

    Acquisition acquisition = PackageAcquirer.builder(PackageSources.mavenRepository(repository.uri(), true), store)
        .keys(TrustedKeys.load(keyring))
        .policy(TrustPolicies.strict())
        .build()
        .acquire(Coordinates.parse(COORDINATES));

    assertThat(acquisition.decision().code()).isEqualTo(AcquisitionCodes.PROVENANCE_REPOSITORY_UNCHECKED);
    assertStoreEmpty();
  }

  @ParameterizedTest
  @CsvSource({
      "1.+, COORDINATES_RANGE",
      "1.0.+, COORDINATES_RANGE",
      "+, COORDINATES_RANGE",
      "1.0.0+, COORDINATES_RANGE",
      "'[1.0,2.0)', COORDINATES_RANGE",
      "'(,1.0]', COORDINATES_RANGE",
      "'[1.0]', COORDINATES_RANGE",
      "']1.0,2.0[', COORDINATES_RANGE",
      "latest.release, COORDINATES_NOT_EXACT",
      "latest.integration, COORDINATES_NOT_EXACT",
      "latest.milestone, COORDINATES_NOT_EXACT",
      "LATEST, COORDINATES_NOT_EXACT",
      "RELEASE, COORDINATES_NOT_EXACT",
      "1.0-SNAPSHOT, COORDINATES_SNAPSHOT",
  })
  void refusesEveryDynamicVersionBeforeAnyRequestReachesTheRepository(String version, String code) {
    publishGood();
    repository.write("com/example/hello/" + version + "/hello-" + version + ".zip", packageBytes);

    assertThatThrownBy(() -> acquirer(TrustPolicies.standard()).acquire(Coordinates.parse("com.example:hello:" + version + "@zip")))
        .isInstanceOf(AcquisitionRefusedException.class)
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(code);
    assertThat(repository.requests()).as("requests that reached the repository").isEmpty();
    assertStoreEmpty();
  }

  @Test
  void anExactVersionWithBuildMetadataIsStillExact() {
    assertThat(Coordinates.parse("com.example:hello:1.0.0+build.5@zip").version()).isEqualTo("1.0.0+build.5");
  }

  @Test
  void thePomIsFetchedBesideTheArtifactAndWithoutScmChangesNothing() {
    publishGood();
    repository.write(POM, pom(""));

    Acquisition acquisition = acquirer(TrustPolicies.strict()).acquire(Coordinates.parse(COORDINATES));

    assertThat(acquisition.accepted()).as(acquisition.decision().reason()).isTrue();
    assertThat(acquisition.observations().fetched()).anySatisfy(fetch -> {
      assertThat(fetch.location()).isEqualTo(repository.uri() + POM);
      assertThat(fetch.found()).isTrue();
    });
    assertThat(acquisition.score().total()).isEqualTo(85);
  }

  @ParameterizedTest
  @ValueSource(strings = {"url", "connection", "developerConnection"})
  void theStrictPolicyRefusesProvenanceWhoseRepositoryThePomScmContradicts(String element) {
    publishGood();
    String[] values = {
        "https://github.com/example/hello", "scm:git:https://github.com/example/hello.git", "scm:git:git@github.com:example/hello.git"};
    String[] elements = {"url", "connection", "developerConnection"};
    StringBuilder scm = new StringBuilder("<scm>");
    for (int i = 0; i < elements.length; i++) {
      String value = elements[i].equals(element) ? "scm:git:https://github.com/attacker/hello.git" : values[i];
      scm.append("<").append(elements[i]).append(">").append(value).append("</").append(elements[i]).append(">");
    }
    repository.write(POM, pom(scm.append("</scm>").toString()));

    Acquisition strict = assertRefused(acquirer(TrustPolicies.strict()), AcquisitionCodes.PROVENANCE_SCM_MISMATCH);
    assertThat(strict.decision().reason()).contains("<" + element + ">").contains("github.com/attacker/hello").contains(REPOSITORY);

    Acquisition lenient = acquirer(TrustPolicies.standard()).acquire(Coordinates.parse(COORDINATES));
    assertThat(lenient.accepted()).as(lenient.decision().reason()).isTrue();
    assertThat(lenient.observations().provenance().status()).isEqualTo(Check.Status.UNVERIFIED);
    assertThat(lenient.observations().provenance().code()).isEqualTo(AcquisitionCodes.PROVENANCE_SCM_MISMATCH);
    assertThat(lenient.score().components()).filteredOn(c -> c.name().equals("provenance"))
        .singleElement().satisfies(c -> assertThat(c.points()).isEqualTo(10));
    assertThat(lenient.score().total()).isEqualTo(65);
    assertThat(lenient.toJson()).contains("PROVENANCE_SCM_MISMATCH");
  }

  @Test
  void aPomScmNamingTheSameRepositoryInAnySpellingAgrees() {
    publishGood();
    repository.write(POM, pom("""
        <scm>
          <url>https://GitHub.com/example/hello/tree/main/</url>
          <connection>scm:git:git://github.com/example/hello.git</connection>
          <developerConnection>scm:git:ssh://git@github.com:22/example/hello.git/</developerConnection>
          <tag>v1.0.0</tag>
        </scm>"""));

    Acquisition acquisition = acquirer(TrustPolicies.strict()).acquire(Coordinates.parse(COORDINATES));

    assertThat(acquisition.accepted()).as(acquisition.decision().reason()).isTrue();
    assertThat(acquisition.observations().provenance().detail()).contains("the POM's <scm> names the same repository");
  }

  @Test
  void anScmNestedDeeperThanTheProjectIsNotThePackagesScm() {
    publishGood();
    repository.write(POM, pom("<build><plugins><plugin><scm><url>https://github.com/other/plugin</url></scm></plugin></plugins></build>"));

    assertThat(acquirer(TrustPolicies.strict()).acquire(Coordinates.parse(COORDINATES)).accepted()).isTrue();
  }

  @Test
  void aPomScmOnAnotherHostWithTheSamePathDisagrees() {
    publishGood();
    repository.write(POM, pom("<scm><url>https://gitlab.com/example/hello</url></scm>"));

    assertRefused(acquirer(TrustPolicies.strict()), AcquisitionCodes.PROVENANCE_SCM_MISMATCH);
  }

  @ParameterizedTest
  @ValueSource(strings = {"external", "parameter", "laughs", "notXml", "notAPom"})
  void aHostilePomIsNotExpandedAndLeavesProvenanceUnverified(String shape) {
    publishGood();
    String xxe = repository.uri() + "xxe";
    String document = switch (shape) {
      case "external" -> """
          <?xml version="1.0"?>
          <!DOCTYPE project [<!ENTITY scm SYSTEM "%s">]>
          <project><scm><url>&scm;</url></scm></project>""".formatted(xxe);
      case "parameter" -> """
          <?xml version="1.0"?>
          <!DOCTYPE project [<!ENTITY %% remote SYSTEM "%s"> %%remote;]>
          <project><scm><url>https://github.com/example/hello</url></scm></project>""".formatted(xxe);
      case "laughs" -> """
          <?xml version="1.0"?>
          <!DOCTYPE project [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
          <project><scm><url>&c;</url></scm></project>""";
      case "notXml" -> "<project><scm><url>https://github.com/example/hello</scm></project>";
      default -> "<html><scm><url>https://github.com/example/hello</url></scm></html>";
    };
    repository.write(POM, document);

    Acquisition strict = assertRefused(acquirer(TrustPolicies.strict()), AcquisitionCodes.PROVENANCE_SCM_UNREADABLE);
    Acquisition lenient = acquirer(TrustPolicies.standard()).acquire(Coordinates.parse(COORDINATES));

    assertThat(strict.decision().reason()).doesNotContain("aaaaaaaaaaaaaaaaaaaa");
    assertThat(lenient.accepted()).isTrue();
    assertThat(lenient.observations().provenance().code()).isEqualTo(AcquisitionCodes.PROVENANCE_SCM_UNREADABLE);
    assertThat(repository.requests()).as("requests that reached the repository").doesNotContain("/repo/xxe");
  }

  @Test
  void aPomIsNotFetchedWhenThereIsNoProvenanceToCompareItWith() {
    publishGood();
    repository.delete(PATH + ".intoto.json");
    repository.delete(PATH + ".intoto.json.asc");
    repository.write(POM, pom("<scm><url>https://github.com/attacker/hello</url></scm>"));

    Acquisition acquisition = acquirer(TrustPolicies.standard()).acquire(Coordinates.parse(COORDINATES));

    assertThat(acquisition.accepted()).isTrue();
    assertThat(repository.requests()).doesNotContain("/repo/" + POM);
  }

  @ParameterizedTest
  @ValueSource(strings = {"sha512", "both"})
  void acceptsSignedProvenanceWhoseSubjectNamesTheArtifactBySha512(String digests) {
    publishGood();
    String sha512 = "\"sha512\": \"" + RepositoryFixture.hex("SHA-512", packageBytes) + "\"";
    String sha256 = "\"sha256\": \"" + RepositoryFixture.hex("SHA-256", packageBytes).toUpperCase(java.util.Locale.ROOT) + "\"";
    publishProvenance(provenanceWithDigest(digests.equals("both") ? sha256 + ", " + sha512 : sha512, "git+" + REPOSITORY, COMMIT));

    Acquisition acquisition = acquirer(TrustPolicies.strict()).acquire(Coordinates.parse(COORDINATES));

    assertThat(acquisition.accepted()).as(acquisition.decision().reason()).isTrue();
    assertThat(acquisition.observations().provenance().isVerified()).isTrue();
  }

  @ParameterizedTest
  @CsvSource({"sha256, sha512", "sha512, sha256", "sha256, sha1", "sha512, md5"})
  void refusesASubjectWithOneMatchingDigestAndOneThatDiffers(String matching, String differing) {
    publishGood();
    String other = RepositoryFixture.hex(javaName(differing), "other".getBytes(StandardCharsets.UTF_8));
    publishProvenance(provenanceWithDigest(
        "\"" + matching + "\": \"" + RepositoryFixture.hex(javaName(matching), packageBytes) + "\", \"" + differing + "\": \"" + other + "\"",
        "git+" + REPOSITORY, COMMIT));

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.PROVENANCE_SUBJECT_MISMATCH);

    assertThat(acquisition.decision().reason()).contains("has the artifact's " + matching).contains(differing);
  }

  @ParameterizedTest
  @ValueSource(strings = {"sha3_256", "sha1", "gitCommit"})
  void refusesASubjectWhoseDigestsCannotNameTheArtifact(String algorithm) {
    publishGood();
    String value = algorithm.equals("sha1") ? RepositoryFixture.hex("SHA-1", packageBytes) : RepositoryFixture.hex("SHA3-256", packageBytes);
    publishProvenance(provenanceWithDigest("\"" + algorithm + "\": \"" + value + "\"", "git+" + REPOSITORY, COMMIT));

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.PROVENANCE_DIGEST_UNSUPPORTED);

    assertThat(acquisition.decision().reason()).contains("sha256 or sha512");
  }

  @Test
  void aPolicyFileRequiresWhatItNames() throws IOException {
    publishGood();
    repository.delete(PATH + ".asc");
    Path policy = work.resolve("policy.json");
    Files.writeString(policy, "{\"name\": \"provenance-only\", \"requireSignature\": false, \"requireProvenance\": true}");

    Acquisition acquisition = acquirer(TrustPolicies.named(policy.toString())).acquire(Coordinates.parse(COORDINATES));

    assertThat(acquisition.accepted()).isTrue();
    assertThat(acquisition.decision().policy()).isEqualTo("provenance-only");
  }

  @Test
  void aPolicyFileWithUnknownFieldsIsRefused() throws IOException {
    Path policy = work.resolve("policy.json");
    Files.writeString(policy, "{\"name\": \"lax\", \"requireSignature\": false, \"requireProvenance\": false, \"minimumScore\": 10}");

    assertThatThrownBy(() -> TrustPolicies.fromFile(policy))
        .isInstanceOf(AcquisitionRefusedException.class)
        .hasMessageContaining("minimumScore")
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.TRUST_POLICY_INVALID);
  }

  @Test
  void refusesAnOversizeDownloadLeavingNothing() {
    publishGood();
    PackageAcquirer small = PackageAcquirer.builder(PackageSources.mavenRepository(repository.uri(), true), store)
        .maxBytes(packageBytes.length - 1)
        .build();

    assertThatThrownBy(() -> small.acquire(Coordinates.parse(COORDINATES)))
        .isInstanceOf(AcquisitionRefusedException.class)
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.DOWNLOAD_TOO_LARGE);
    assertStoreEmpty();
  }

  @Test
  void refusesAnOversizeSideFileLeavingNothing() {
    publishGood();
    repository.write(PATH + ".asc", new byte[200 * 1024]);

    assertThatThrownBy(() -> acquirer(TrustPolicies.standard()).acquire(Coordinates.parse(COORDINATES)))
        .isInstanceOf(AcquisitionRefusedException.class)
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.DOWNLOAD_TOO_LARGE);
    assertStoreEmpty();
  }

  @Test
  void aBodyThatStallsIsRefusedWhenItsBudgetRunsOutLeavingNothing() {
    publishGood();
    repository.stall(PATH);
    PackageAcquirer impatient = PackageAcquirer.builder(PackageSources.mavenRepository(repository.uri(), true, Duration.ofMillis(500)), store)
        .build();

    assertThatThrownBy(() -> impatient.acquire(Coordinates.parse(COORDINATES)))
        .isInstanceOf(AcquisitionRefusedException.class)
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.DOWNLOAD_TIMED_OUT);
    assertStoreEmpty();
  }

  @Test
  void refusesRedirectsInsteadOfFollowingThem() {
    publishGood();
    repository.answer(PATH, 302);

    assertThatThrownBy(() -> acquirer(TrustPolicies.standard()).acquire(Coordinates.parse(COORDINATES)))
        .isInstanceOf(AcquisitionRefusedException.class)
        .hasMessageContaining("example.invalid")
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.SOURCE_REDIRECT);
    assertStoreEmpty();
  }

  @Test
  void aRedirectIsReportedWithoutTheCredentialsOfItsLocation() {
    publishGood();
    repository.answer(PATH, 302, "https://mirror:s3cret@mirror.example/hello.zip?X-Amz-Signature=s3cret&X-Amz-Expires=60");

    assertThatThrownBy(() -> acquirer(TrustPolicies.standard()).acquire(Coordinates.parse(COORDINATES)))
        .isInstanceOf(AcquisitionRefusedException.class)
        .hasMessageContaining(repository.uri().getAuthority())
        .hasMessageContaining("https://redacted@mirror.example/hello.zip?X-Amz-Signature=redacted&X-Amz-Expires=60")
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void aRepositoryWithUserInformationIsRefusedWithoutRepeatingIt() {
    URI withUser = URI.create("http://user:s3cret@" + repository.uri().getAuthority() + "/repo/");

    assertThatThrownBy(() -> PackageSources.mavenRepository(withUser, true))
        .isInstanceOf(AcquisitionRefusedException.class)
        .hasMessageContaining("http://redacted@" + repository.uri().getAuthority() + "/repo/")
        .hasMessageNotContaining("s3cret")
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.SOURCE_INVALID);
  }

  @Test
  void aServerErrorOnASideFileLeavesNothing() {
    publishGood();
    repository.answer(PATH + ".intoto.json", 500);

    assertThatThrownBy(() -> acquirer(TrustPolicies.standard()).acquire(Coordinates.parse(COORDINATES)))
        .isInstanceOf(AcquisitionRefusedException.class)
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.SOURCE_UNAVAILABLE);
    assertStoreEmpty();
  }

  @Test
  void aMissingArtifactIsNotFound() {
    assertThatThrownBy(() -> acquirer(TrustPolicies.standard()).acquire(Coordinates.parse(COORDINATES)))
        .isInstanceOf(AcquisitionRefusedException.class)
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.ARTIFACT_NOT_FOUND);
  }

  @Test
  void plainHttpIsRefusedUnlessAllowedAndLoopback() {
    assertThatThrownBy(() -> PackageSources.mavenRepository(repository.uri()))
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.SOURCE_INSECURE);
    assertThatThrownBy(() -> PackageSources.mavenRepository(URI.create("http://192.0.2.1/repo/"), true))
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.SOURCE_INSECURE);
    assertThatThrownBy(() -> PackageSources.mavenRepository(URI.create("ftp://127.0.0.1/repo/"), true))
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.SOURCE_INVALID);
    assertThatThrownBy(() -> PackageSources.mavenRepository(URI.create("https://user:secret@repo.example/")))
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.SOURCE_INVALID);
  }

  @Test
  void acquiresFromALocalRepositoryDirectory() {
    publishGood();

    Acquisition acquisition = PackageAcquirer.builder(PackageSources.localRepository(repository.root().resolve("repo")), store)
        .keys(TrustedKeys.load(keyring))
        .policy(TrustPolicies.strict())
        .expectedRepository(REPOSITORY)
        .build()
        .acquire(Coordinates.parse(COORDINATES));

    assertThat(acquisition.accepted()).as(acquisition.decision().reason()).isTrue();
  }

  @Test
  void aLocalRepositoryRefusesALinkThatLeavesIt() throws IOException {
    Path outside = Files.write(work.resolve("outside.zip"), packageBytes);
    Path link = repository.root().resolve("repo").resolve(PATH);
    Files.createDirectories(link.getParent());
    Files.createSymbolicLink(link, outside);

    assertThatThrownBy(() -> PackageAcquirer.builder(PackageSources.localRepository(repository.root().resolve("repo")), store)
            .build()
            .acquire(Coordinates.parse(COORDINATES)))
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.SOURCE_INVALID);
    assertStoreEmpty();
  }

  @Test
  void aKeyringEntryWhoseKeyHasAnotherFingerprintIsRefused() throws IOException {
    Files.writeString(keyring, """
        {"keys": [{"fingerprint": "%s", "publicKey": %s, "coordinates": ["com.example:hello"]}]}
        """.formatted(releaseKey.fingerprint(), json(strangerKey.armoredPublicKey())));

    assertThatThrownBy(() -> TrustedKeys.load(keyring))
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.KEYRING_INVALID);
  }

  @Test
  void aKeyringPatternCannotTrustEveryGroup() throws IOException {
    Files.writeString(keyring, """
        {"keys": [{"fingerprint": "%s", "publicKey": %s, "coordinates": ["*:*"]}]}
        """.formatted(releaseKey.fingerprint(), json(releaseKey.armoredPublicKey())));

    assertThatThrownBy(() -> TrustedKeys.load(keyring))
        .extracting(e -> ((AcquisitionRefusedException) e).code())
        .isEqualTo(AcquisitionCodes.KEYRING_INVALID);
  }

  @Test
  void acceptsASignatureByASubkeyBoundForSigning() throws IOException {
    PgpFixture release = PgpFixture.withSubkey("Hello Release <release@example.com>", PgpFixture.Subkey.BOUND);
    trustOnly(release);
    publishSignedBy(release);

    Acquisition acquisition = acquirer(TrustPolicies.standard()).acquire(Coordinates.parse(COORDINATES));

    assertThat(acquisition.accepted()).as(acquisition.decision().reason()).isTrue();
    assertThat(acquisition.observations().signature().isVerified()).isTrue();
  }

  @ParameterizedTest
  @EnumSource(names = {"UNBOUND", "NOT_FOR_SIGNING", "NOT_CROSS_CERTIFIED"})
  void refusesASignatureByASubkeyThePrimaryKeyDidNotBindForSigning(PgpFixture.Subkey shape) throws IOException {
    PgpFixture release = PgpFixture.withSubkey("Hello Release <release@example.com>", shape);
    trustOnly(release);
    publishSignedBy(release);

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.SIGNATURE_KEY_UNBOUND);

    assertThat(acquisition.decision().reason()).contains(release.fingerprint());
  }

  @Test
  void refusesASignatureByASubkeyAnAttackerAppendedToTheTrustedRing() throws IOException {
    PgpFixture attacker = PgpFixture.withSubkey("Attacker <attacker@example.net>", PgpFixture.Subkey.BOUND);
    PgpFixture poisoned = releaseKey.withSubkeyOf(attacker);
    trustOnly(poisoned);
    publishSignedBy(poisoned);

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.SIGNATURE_KEY_UNBOUND);

    assertThat(acquisition.decision().reason()).contains("no valid binding signature");
  }

  @Test
  void refusesASignatureByARevokedKey() throws IOException {
    PgpFixture revoked = releaseKey.revoked();
    trustOnly(revoked);
    publishSignedBy(revoked);

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.SIGNATURE_KEY_REVOKED);
  }

  @Test
  void aRevocationAppendedByAnotherKeyRevokesNothing() throws IOException {
    PgpFixture forged = releaseKey.withForgedSignature(PGPSignature.KEY_REVOCATION, strangerKey);
    trustOnly(forged);
    publishSignedBy(forged);

    Acquisition acquisition = acquirer(TrustPolicies.standard()).acquire(Coordinates.parse(COORDINATES));

    assertThat(acquisition.accepted()).as(acquisition.decision().reason()).isTrue();
  }

  @Test
  void anExpiredKeyIsNotRevivedByAnAppendedSelfSignatureWithoutExpiry() throws IOException {
    long day = 24 * 3600;
    PgpFixture expired = PgpFixture.generate("Expired <expired@example.com>", new Date(System.currentTimeMillis() - 3 * day * 1000), day);
    PgpFixture revived = expired.withForgedSignature(PGPSignature.POSITIVE_CERTIFICATION, strangerKey);
    trustOnly(revived);
    publishSignedBy(revived);

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.SIGNATURE_KEY_EXPIRED);
  }

  @Test
  void aSubkeyReboundForEncryptionOnlyNoLongerSignsButEarlierSignaturesStand() throws IOException {
    long now = System.currentTimeMillis();
    PgpFixture rebound = PgpFixture.withSubkey("Hello Release <release@example.com>", PgpFixture.Subkey.BOUND)
        .reboundForEncryptionOnly(new Date(now + 60_000));
    trustOnly(rebound);
    publishSignedBy(rebound);
    repository.write(PATH + ".asc", rebound.sign(packageBytes, new Date(now + 120_000)));

    assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.SIGNATURE_KEY_UNBOUND);

    repository.write(PATH + ".asc", rebound.sign(packageBytes, new Date(now)));
    assertThat(acquirer(TrustPolicies.standard()).acquire(Coordinates.parse(COORDINATES)).accepted()).isTrue();
  }

  @Test
  void refusesASignatureByAPrimaryKeyWhoseFlagsAllowOnlyCertifying() throws IOException {
    PgpFixture certifyOnly = PgpFixture.generate("Certify Only <ca@example.com>", KeyFlags.CERTIFY_OTHER);
    trustOnly(certifyOnly);
    publishSignedBy(certifyOnly);

    Acquisition acquisition = assertRefused(acquirer(TrustPolicies.standard()), AcquisitionCodes.SIGNATURE_KEY_UNBOUND);

    assertThat(acquisition.decision().reason()).contains("not allowed to sign data");
  }

  @Test
  void acceptsASignatureByAPrimaryKeyWhoseFlagsAllowSigning() throws IOException {
    PgpFixture signing = PgpFixture.generate("Signer <signer@example.com>",
        KeyFlags.CERTIFY_OTHER | KeyFlags.SIGN_DATA);
    trustOnly(signing);
    publishSignedBy(signing);

    assertThat(acquirer(TrustPolicies.standard()).acquire(Coordinates.parse(COORDINATES)).accepted()).isTrue();
  }

  private void trustOnly(PgpFixture key) throws IOException {
    Files.writeString(keyring, """
        {"keys": [{"fingerprint": "%s", "publicKey": %s, "coordinates": ["com.example:hello"]}]}
        """.formatted(key.fingerprint(), json(key.armoredPublicKey())));
  }

  private void publishSignedBy(PgpFixture key) {
    repository.write(PATH, packageBytes);
    repository.write(PATH + ".sha256", RepositoryFixture.hex("SHA-256", packageBytes));
    repository.write(PATH + ".sha512", RepositoryFixture.hex("SHA-512", packageBytes));
    repository.write(PATH + ".asc", key.sign(packageBytes));
  }

  private Acquisition assertRefused(PackageAcquirer acquirer, String code) {
    Acquisition acquisition = acquirer.acquire(Coordinates.parse(COORDINATES));
    assertThat(acquisition.accepted()).isFalse();
    assertThat(acquisition.decision().code()).as(acquisition.decision().reason()).isEqualTo(code);
    assertThat(acquisition.stored()).isEmpty();
    assertStoreEmpty();
    return acquisition;
  }

  private void assertStoreEmpty() {
    if (!Files.exists(store)) {
      return;
    }
    try (Stream<Path> files = Files.walk(store)) {
      assertThat(files.filter(Files::isRegularFile).toList()).as("files left in the store").isEmpty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private PackageAcquirer acquirer(TrustPolicy policy) {
    return PackageAcquirer.builder(PackageSources.mavenRepository(repository.uri(), true), store)
        .keys(TrustedKeys.load(keyring))
        .policy(policy)
        .expectedRepository(REPOSITORY)
        .build();
  }

  private void publishGood() {
    publish(packageBytes);
  }

  /** Publishes {@code bytes} with checksums, a signature by the release key and signed provenance. */
  private void publish(byte[] bytes) {
    repository.write(PATH, bytes);
    repository.write(PATH + ".sha256", RepositoryFixture.hex("SHA-256", bytes));
    repository.write(PATH + ".sha512", RepositoryFixture.hex("SHA-512", bytes));
    repository.write(PATH + ".asc", releaseKey.sign(bytes));
    publishProvenance(provenance(RepositoryFixture.hex("SHA-256", bytes), "git+" + REPOSITORY + "@refs/heads/main", COMMIT));
  }

  private void publishProvenance(byte[] statement) {
    repository.write(PATH + ".intoto.json", statement);
    repository.write(PATH + ".intoto.json.asc", releaseKey.sign(statement));
  }

  public static byte[] provenance(String sha256, String sourceUri, String commit) {
    return provenanceWithDigest("\"sha256\": \"" + sha256 + "\"", sourceUri, commit);
  }

  /** A statement whose one subject has {@code digestFields} (JSON members) as its digest. */
  static byte[] provenanceWithDigest(String digestFields, String sourceUri, String commit) {
    return """
        {
          "_type": "https://in-toto.io/Statement/v1",
          "subject": [{"name": "hello-1.0.0.zip", "digest": {%s}}],
          "predicateType": "https://slsa.dev/provenance/v1",
          "predicate": {
            "buildDefinition": {
              "buildType": "https://example.com/build/v1",
              "externalParameters": {},
              "resolvedDependencies": [{"uri": "%s", "digest": {"gitCommit": "%s"}}]
            },
            "runDetails": {"builder": {"id": "https://example.com/builder"}}
          }
        }
        """.formatted(digestFields, sourceUri, commit).getBytes(StandardCharsets.UTF_8);
  }

  private static String javaName(String algorithm) {
    return switch (algorithm) {
      case "sha1" -> "SHA-1";
      case "md5" -> "MD5";
      default -> algorithm.toUpperCase(java.util.Locale.ROOT).replace("SHA", "SHA-");
    };
  }

  /** A POM for the hello package, with {@code inside} placed in its project element. */
  private static String pom(String inside) {
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>com.example</groupId>
          <artifactId>hello</artifactId>
          <version>1.0.0</version>
          <packaging>zip</packaging>
          %s
        </project>
        """.formatted(inside);
  }

  /** The hello example, packed as a zip capability package at test time. */
  public static byte[] helloPackage(String declaredVersion) {
    Path hello = Path.of("../examples/capabilities/hello");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      zip.putNextEntry(new ZipEntry("capability.json"));
      zip.write(Files.readString(hello.resolve("capability.json"))
          .replace("\"version\": \"1.0.0\"", "\"version\": \"" + declaredVersion + "\"")
          .getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry("lib/hello.jar"));
      zip.write(Files.readAllBytes(hello.resolve("lib/hello.jar")));
      zip.closeEntry();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static String json(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\r", "\\r").replace("\n", "\\n") + "\"";
  }
}
