package dev.capability.acquire.sigstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.acquire.sigstore.SigstoreFixture.Defect;
import dev.capability.acquire.sigstore.SigstoreFixture.Signed;
import dev.sigstore.KeylessVerificationException;
import dev.sigstore.KeylessVerifier;
import dev.sigstore.TrustedRootProvider;
import dev.sigstore.VerificationOptions;
import dev.sigstore.fulcio.client.FulcioVerificationException;
import dev.sigstore.fulcio.client.FulcioVerifier;
import dev.sigstore.rekor.client.RekorVerificationException;
import dev.sigstore.rekor.client.RekorVerifier;
import dev.sigstore.strings.StringMatcher;
import dev.sigstore.trustroot.SigstoreTrustedRoot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Proves {@link SigstoreFixture} against sigstore-java itself: its good bundles pass every stage of
 * keyless verification, and each defect is refused by the stage meant to catch it.
 */
class SigstoreFixtureTest {
  private static final byte[] ARTIFACT = "capability package bytes".getBytes(StandardCharsets.UTF_8);
  private static final String ISSUER = "https://token.actions.githubusercontent.com";
  private static final String WORKFLOW = "https://github.com/acme/widget/.github/workflows/release.yml@refs/tags/v1.0.0";
  private static final String EMAIL = "release@acme.example";

  @TempDir static Path directory;
  private static SigstoreFixture fixture;
  private static SigstoreTrustedRoot trustedRoot;
  private static KeylessVerifier verifier;

  @BeforeAll
  static void deploy() throws Exception {
    fixture = SigstoreFixture.create();
    TrustedRootProvider provider = TrustedRootProvider.from(fixture.writeTrustedRoot(directory));
    trustedRoot = provider.get();
    verifier = KeylessVerifier.builder().trustedRootProvider(provider).build();
  }

  @Test
  void aGoodBundleWithAWorkflowIdentityPassesKeylessVerification() {
    Signed signed = fixture.sign(ARTIFACT, ISSUER, WORKFLOW);

    assertThatCode(() -> verifier.verify(sha256(ARTIFACT), signed.bundle(), matching(ISSUER, WORKFLOW))).doesNotThrowAnyException();
    assertThat(signed.artifactDigest()).isEqualTo(sha256(ARTIFACT));
    assertThat(signed.artifactSha256Hex()).isEqualTo(HexFormat.of().formatHex(sha256(ARTIFACT)));
  }

  @Test
  void aGoodBundleWithAnEmailIdentityPassesKeylessVerification() {
    Signed signed = fixture.sign(ARTIFACT, "https://accounts.example", EMAIL);

    assertThatCode(() -> verifier.verify(sha256(ARTIFACT), signed.bundle(), matching("https://accounts.example", EMAIL)))
        .doesNotThrowAnyException();
  }

  @Test
  void aGoodBundlePassesTheFulcioAndRekorStagesOnTheirOwn() throws Exception {
    Signed signed = fixture.sign(ARTIFACT, ISSUER, WORKFLOW);

    assertThatCode(() -> FulcioVerifier.newFulcioVerifier(trustedRoot).verifySigningCertificate(signed.bundle().getCertPath()))
        .doesNotThrowAnyException();
    assertThatCode(() -> RekorVerifier.newRekorVerifier(trustedRoot).verifyEntry(signed.bundle().getEntries().get(0)))
        .doesNotThrowAnyException();
  }

  @Test
  void theTrustedRootDescribesTheDeployment() {
    assertThat(trustedRoot.getCAs()).singleElement().satisfies(ca -> {
      assertThat(List.<Certificate>copyOf(ca.getCertPath().getCertificates())).containsExactly(fixture.fulcioRoot());
      assertThat(ca.getSubject().getCommonName()).isEqualTo(SigstoreFixture.CA_COMMON_NAME);
    });
    assertThat(trustedRoot.getTLogs()).hasSize(1);
    assertThat(trustedRoot.getCTLogs()).hasSize(1);
    assertThat(trustedRoot.getTLogs().get(0).getLogId().getKeyId()).isNotEqualTo(trustedRoot.getCTLogs().get(0).getLogId().getKeyId());
  }

  @Test
  void aMatcherForAnotherSubjectIsRefused() {
    Signed signed = fixture.sign(ARTIFACT, ISSUER, WORKFLOW);

    assertThatThrownBy(() -> verifier.verify(sha256(ARTIFACT), signed.bundle(), matching(ISSUER, WORKFLOW.replace("acme", "evil"))))
        .isInstanceOf(KeylessVerificationException.class)
        .hasMessageContaining("No provided certificate identities matched");
  }

  @Test
  void aMatcherForAnotherIssuerIsRefused() {
    Signed signed = fixture.sign(ARTIFACT, ISSUER, WORKFLOW);

    assertThatThrownBy(() -> verifier.verify(sha256(ARTIFACT), signed.bundle(), matching("https://accounts.example", WORKFLOW)))
        .isInstanceOf(KeylessVerificationException.class)
        .hasMessageContaining("No provided certificate identities matched");
  }

  @Test
  void aGoodBundleForAnotherArtifactIsRefused() {
    Signed signed = fixture.sign(ARTIFACT, ISSUER, WORKFLOW);
    byte[] other = sha256("another package".getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(() -> verifier.verify(other, signed.bundle(), matching(ISSUER, WORKFLOW)))
        .isInstanceOf(KeylessVerificationException.class)
        .hasMessageContaining("Provided artifact digest does not match");
  }

  @Test
  void aBundleFromAnotherDeploymentIsRefused() {
    Signed foreign = SigstoreFixture.create().sign(ARTIFACT, ISSUER, WORKFLOW);

    assertThatThrownBy(() -> verifier.verify(sha256(ARTIFACT), foreign.bundle(), matching(ISSUER, WORKFLOW)))
        .isInstanceOf(KeylessVerificationException.class)
        .hasMessageContaining("Fulcio certificate was not valid");
  }

  @ParameterizedTest
  @EnumSource(mode = EnumSource.Mode.EXCLUDE, names = {"NONE", "LOG_INDEX_MISMATCH", "CHECKPOINT_SIZE_MISMATCH"})
  void everyDefectIsRefusedByKeylessVerification(Defect defect) {
    Signed signed = fixture.sign(ARTIFACT, ISSUER, WORKFLOW, defect);

    assertThatThrownBy(() -> verifier.verify(sha256(ARTIFACT), signed.bundle(), matching(ISSUER, WORKFLOW)))
        .isInstanceOf(KeylessVerificationException.class);
  }

  @Test
  void aLeafFromAnUntrustedCaIsRefusedByFulcioVerification() throws Exception {
    Signed signed = fixture.sign(ARTIFACT, ISSUER, WORKFLOW, Defect.UNTRUSTED_CA);

    assertThatThrownBy(() -> fulcio().verifySigningCertificate(signed.bundle().getCertPath()))
        .isInstanceOf(FulcioVerificationException.class)
        .hasMessageContaining("Certificate was not verifiable against CAs");
    rekor().verifyEntry(signed.bundle().getEntries().get(0));
  }

  @Test
  void aLeafWithoutAnSctIsRefusedByFulcioVerification() throws Exception {
    Signed signed = fixture.sign(ARTIFACT, ISSUER, WORKFLOW, Defect.NO_SCT);

    assertThatThrownBy(() -> fulcio().verifySigningCertificate(signed.bundle().getCertPath()))
        .isInstanceOf(FulcioVerificationException.class)
        .hasMessageContaining("No valid SCTs were found during verification");
    rekor().verifyEntry(signed.bundle().getEntries().get(0));
  }

  @Test
  void anSctFromAnUnknownLogIsRefusedByFulcioVerification() throws Exception {
    Signed signed = fixture.sign(ARTIFACT, ISSUER, WORKFLOW, Defect.SCT_FROM_UNKNOWN_LOG);

    assertThatThrownBy(() -> fulcio().verifySigningCertificate(signed.bundle().getCertPath()))
        .isInstanceOf(FulcioVerificationException.class)
        .hasMessageContaining("all(1) SCTs were invalid");
    rekor().verifyEntry(signed.bundle().getEntries().get(0));
  }

  @Test
  void aSignedEntryTimestampFromAnUnknownKeyIsRefusedByRekorVerification() throws Exception {
    Signed signed = fixture.sign(ARTIFACT, ISSUER, WORKFLOW, Defect.SET_FROM_UNKNOWN_KEY);

    fulcio().verifySigningCertificate(signed.bundle().getCertPath());
    assertThatThrownBy(() -> rekor().verifyEntry(signed.bundle().getEntries().get(0)))
        .isInstanceOf(RekorVerificationException.class)
        .hasMessageContaining("Entry SET was not valid");
  }

  @Test
  void anInclusionProofWithTheWrongRootIsRefusedByRekorVerification() throws Exception {
    Signed signed = fixture.sign(ARTIFACT, ISSUER, WORKFLOW, Defect.WRONG_ROOT_HASH);

    fulcio().verifySigningCertificate(signed.bundle().getCertPath());
    assertThatThrownBy(() -> rekor().verifyEntry(signed.bundle().getEntries().get(0)))
        .isInstanceOf(RekorVerificationException.class)
        .hasMessageContaining("Calculated inclusion proof root hash does not match");
  }

  @Test
  void aCheckpointForAnotherRootIsRefusedByRekorVerification() throws Exception {
    Signed signed = fixture.sign(ARTIFACT, ISSUER, WORKFLOW, Defect.CHECKPOINT_MISMATCH);

    fulcio().verifySigningCertificate(signed.bundle().getCertPath());
    assertThatThrownBy(() -> rekor().verifyEntry(signed.bundle().getEntries().get(0)))
        .isInstanceOf(RekorVerificationException.class)
        .hasMessageContaining("Checkpoint root hash does not match");
  }

  @Test
  void aSignatureOverOtherBytesPassesBothLogsButIsRefusedByKeylessVerification() throws Exception {
    Signed signed = fixture.sign(ARTIFACT, ISSUER, WORKFLOW, Defect.SIGNATURE_OVER_OTHER_BYTES);

    fulcio().verifySigningCertificate(signed.bundle().getCertPath());
    rekor().verifyEntry(signed.bundle().getEntries().get(0));
    assertThatThrownBy(() -> verifier.verify(sha256(ARTIFACT), signed.bundle(), matching(ISSUER, WORKFLOW)))
        .isInstanceOf(KeylessVerificationException.class)
        .hasMessageContaining("Provided artifact digest does not match");
  }

  @Test
  void anIntegratedTimeAfterExpiryPassesBothLogsButIsRefusedByKeylessVerification() throws Exception {
    Signed signed = fixture.sign(ARTIFACT, ISSUER, WORKFLOW, Defect.INTEGRATED_AFTER_EXPIRY);

    fulcio().verifySigningCertificate(signed.bundle().getCertPath());
    rekor().verifyEntry(signed.bundle().getEntries().get(0));
    assertThatThrownBy(() -> verifier.verify(sha256(ARTIFACT), signed.bundle(), matching(ISSUER, WORKFLOW)))
        .isInstanceOf(KeylessVerificationException.class)
        .hasMessageContaining("Signing time was after certificate expiry");
  }

  /** Why acquisition refuses bundles without a message signature: sigstore-java 1.3.0 takes any attestation. */
  @Test
  void keylessVerificationTakesAnAttestationAboutTheDigestAsVerifyingIt() {
    Signed attestation = fixture.attest(ARTIFACT, ISSUER, WORKFLOW, "https://example.com/scan-result/v1");

    assertThat(attestation.bundle().getMessageSignature()).isEmpty();
    assertThatCode(() -> verifier.verify(sha256(ARTIFACT), attestation.bundle(), matching(ISSUER, WORKFLOW))).doesNotThrowAnyException();
  }

  /** Why {@code SigstoreVerifier} binds these itself: sigstore-java 1.3.0 does not. */
  @ParameterizedTest
  @EnumSource(names = {"LOG_INDEX_MISMATCH", "CHECKPOINT_SIZE_MISMATCH"})
  void keylessVerificationAloneLeavesTheProofsIndexAndSizeUnbound(Defect defect) throws Exception {
    Signed signed = fixture.sign(ARTIFACT, ISSUER, WORKFLOW, defect);

    assertThatCode(() -> verifier.verify(sha256(ARTIFACT), signed.bundle(), matching(ISSUER, WORKFLOW))).doesNotThrowAnyException();
  }

  private static FulcioVerifier fulcio() throws Exception {
    return FulcioVerifier.newFulcioVerifier(trustedRoot);
  }

  private static RekorVerifier rekor() {
    return RekorVerifier.newRekorVerifier(trustedRoot);
  }

  private static VerificationOptions matching(String issuer, String subject) {
    return VerificationOptions.builder()
        .addCertificateMatchers(VerificationOptions.CertificateMatcher.fulcio()
            .issuer(StringMatcher.string(issuer))
            .subjectAlternativeName(StringMatcher.string(subject))
            .build())
        .build();
  }

  private static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
