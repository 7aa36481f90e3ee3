package dev.capability.acquire.sigstore.internal;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import dev.capability.acquire.Check;
import dev.capability.acquire.Coordinates;
import dev.capability.acquire.spi.SigstoreBundleVerifier;
import dev.capability.acquire.spi.SigstoreOutcome;
import dev.sigstore.KeylessVerificationException;
import dev.sigstore.KeylessVerifier;
import dev.sigstore.VerificationOptions;
import dev.sigstore.bundle.Bundle;
import dev.sigstore.bundle.BundleParseException;
import dev.sigstore.fulcio.client.FulcioVerificationException;
import dev.sigstore.fulcio.client.FulcioVerifier;
import dev.sigstore.rekor.client.RekorEntry;
import dev.sigstore.rekor.client.RekorParseException;
import dev.sigstore.rekor.client.RekorVerificationException;
import dev.sigstore.rekor.client.RekorVerifier;
import dev.sigstore.strings.StringMatcher;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Verifies a Sigstore bundle over an artifact with sigstore-java, offline, against the operator's
 * trusted root and expected signers. The steps run in order so that each failure has its own
 * code: the bundle parses and holds a message signature (not a DSSE attestation) and one log
 * entry; its certificate chains to a trusted CA and carries a valid SCT from a
 * trusted CT log; the certificate's identity is one the operator expects and authorizes for the
 * coordinates; the transparency-log entry is signed by a trusted log, included under a signed
 * checkpoint and integrated while the certificate was valid; the bundle signs these bytes. Last,
 * sigstore-java's own {@link KeylessVerifier} verifies the whole bundle again with the identity
 * found, so no check it makes is skipped.
 */
public final class SigstoreVerifier implements SigstoreBundleVerifier {
  private final SigstoreTrustFile.Contents trust;
  private final FulcioVerifier certificates;
  private final RekorVerifier log;
  private final KeylessVerifier keyless;

  public SigstoreVerifier(SigstoreTrustFile.Contents trust) {
    this.trust = trust;
    try {
      this.certificates = FulcioVerifier.newFulcioVerifier(trust.trustedRoot());
      this.log = RekorVerifier.newRekorVerifier(trust.trustedRoot());
      this.keyless = KeylessVerifier.builder().trustedRootProvider(trust::trustedRoot).build();
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      throw new AcquisitionRefusedException(
          AcquisitionCodes.SIGSTORE_TRUST_INVALID, "the trusted root " + trust.trustedRootFile() + " cannot be used: " + e.getMessage());
    }
  }

  @Override
  public SigstoreOutcome verify(byte[] bundleBytes, String sha256, Coordinates coordinates, String what) {
    Bundle bundle;
    try {
      bundle = Bundle.from(new StringReader(new String(bundleBytes, StandardCharsets.UTF_8)));
    } catch (BundleParseException | RuntimeException e) {
      return SigstoreOutcome.failed(AcquisitionCodes.SIGSTORE_BUNDLE_INVALID, what + ".sigstore.json is not a Sigstore bundle: " + e.getMessage());
    }
    if (bundle.getMessageSignature().isEmpty()) {
      // A DSSE envelope is an attestation: a statement, of any predicate, about some digest. That
      // the signer said something about these bytes is not that it signed them, though
      // sigstore-java 1.3.0 verifies it as if it were (and does not tie its log entry to the
      // certificate).
      return SigstoreOutcome.failed(
          AcquisitionCodes.SIGSTORE_BUNDLE_INVALID,
          what + ".sigstore.json holds a DSSE attestation, not a message signature of " + what + "; attestations are not taken as signatures");
    }
    if (bundle.getEntries().size() != 1) {
      return SigstoreOutcome.failed(
          AcquisitionCodes.SIGSTORE_BUNDLE_INVALID,
          what + ".sigstore.json has " + bundle.getEntries().size() + " transparency-log entries; exactly one is required");
    }
    X509Certificate leaf;
    try {
      if (bundle.getCertPath().getCertificates().isEmpty()) {
        return SigstoreOutcome.failed(AcquisitionCodes.SIGSTORE_BUNDLE_INVALID, what + ".sigstore.json has no signing certificate");
      }
      leaf = (X509Certificate) bundle.getCertPath().getCertificates().get(0);
      certificates.verifySigningCertificate(bundle.getCertPath());
    } catch (FulcioVerificationException | IOException | RuntimeException e) {
      return SigstoreOutcome.failed(
          AcquisitionCodes.SIGSTORE_CERTIFICATE_UNTRUSTED,
          "the certificate in " + what + ".sigstore.json is not certified by the trusted root " + trust.trustedRootFile() + ": " + e.getMessage());
    }

    Optional<SigstoreSigner> signer = SigstoreSigner.of(leaf);
    if (signer.isEmpty()) {
      return SigstoreOutcome.failed(
          AcquisitionCodes.SIGSTORE_IDENTITY_UNKNOWN,
          "the certificate in " + what + ".sigstore.json names no OIDC issuer, or not exactly one subject (an email address or a URI)");
    }
    Optional<String> signerName = Optional.of(signer.get().toString());
    RekorEntry entry = bundle.getEntries().get(0);
    Optional<SigstoreOutcome> failure = identityFailure(signer.get(), coordinates, what)
        .or(() -> logFailure(entry, leaf, what))
        .or(() -> signatureFailure(bundle, sha256, signer.get(), what));
    if (failure.isPresent()) {
      return new SigstoreOutcome(failure.get().check(), signerName);
    }
    return new SigstoreOutcome(
        Check.verified(
            what + " is signed by " + signerName.get() + ", certified by a CA of " + trust.trustedRootFile().getFileName()
                + " and logged at index " + entry.getLogIndex() + " at " + entry.getIntegratedTimeInstant()),
        signerName);
  }

  /** The signer must be an expected identity, and one authorized for the coordinates. */
  private Optional<SigstoreOutcome> identityFailure(SigstoreSigner signer, Coordinates coordinates, String what) {
    List<SigstoreIdentity> known = trust.identities().stream().filter(identity -> identity.matches(signer)).toList();
    if (known.isEmpty()) {
      return failure(AcquisitionCodes.SIGSTORE_IDENTITY_UNKNOWN, what + " was signed by " + signer + ", which is not an expected Sigstore identity");
    }
    if (known.stream().noneMatch(identity -> identity.authorizes(coordinates))) {
      return failure(
          AcquisitionCodes.SIGSTORE_IDENTITY_NOT_AUTHORIZED,
          what + " was signed by " + signer + ", which the Sigstore trust authorizes only for "
              + known.stream().flatMap(identity -> identity.patterns().stream()).distinct().toList() + ", not " + coordinates.module());
    }
    return Optional.empty();
  }

  /** The entry must be signed and included by a trusted log, consistently, while the certificate was valid. */
  private Optional<SigstoreOutcome> logFailure(RekorEntry entry, X509Certificate leaf, String what) {
    try {
      log.verifyEntry(entry);
      Optional<String> inconsistency = inconsistency(entry);
      if (inconsistency.isPresent()) {
        return failure(AcquisitionCodes.SIGSTORE_TLOG_INVALID, "the transparency-log entry in " + what + ".sigstore.json " + inconsistency.get());
      }
      leaf.checkValidity(Date.from(entry.getIntegratedTimeInstant()));
      return Optional.empty();
    } catch (RekorVerificationException | RekorParseException | RuntimeException e) {
      return failure(AcquisitionCodes.SIGSTORE_TLOG_INVALID, "the transparency-log entry in " + what + ".sigstore.json does not verify: " + e.getMessage());
    } catch (CertificateExpiredException | CertificateNotYetValidException e) {
      return failure(
          AcquisitionCodes.SIGSTORE_TLOG_INVALID,
          "the transparency log integrated " + what + "'s entry at " + entry.getIntegratedTimeInstant() + ", outside the certificate's validity");
    }
  }

  /**
   * The bundle must sign these bytes; then sigstore-java verifies the whole bundle once more, with
   * the identity found, so no check it makes is skipped by the order above.
   */
  private Optional<SigstoreOutcome> signatureFailure(Bundle bundle, String sha256, SigstoreSigner signer, String what) {
    byte[] digest = HexFormat.of().parseHex(sha256);
    Optional<byte[]> signedDigest = bundle.getMessageSignature().orElseThrow().getMessageDigest().map(Bundle.MessageDigest::getDigest);
    if (signedDigest.isPresent() && !Arrays.equals(signedDigest.get(), digest)) {
      return failure(
          AcquisitionCodes.SIGSTORE_SIGNATURE_INVALID,
          what + ".sigstore.json signs other bytes (SHA-256 " + HexFormat.of().formatHex(signedDigest.get()) + "), not " + what + " (" + sha256 + ")");
    }
    try {
      keyless.verify(digest, bundle, expecting(signer));
      return Optional.empty();
    } catch (KeylessVerificationException | RuntimeException e) {
      return failure(AcquisitionCodes.SIGSTORE_SIGNATURE_INVALID, what + ".sigstore.json does not verify over " + what + ": " + e.getMessage());
    }
  }

  private static Optional<SigstoreOutcome> failure(String code, String detail) {
    return Optional.of(SigstoreOutcome.failed(code, detail));
  }

  /**
   * What sigstore-java 1.3.0 leaves unbound: the index the signed entry timestamp covers against
   * the index the inclusion proof is for, and the tree size of the proof against the checkpoint's.
   */
  private static Optional<String> inconsistency(RekorEntry entry) throws RekorParseException {
    RekorEntry.InclusionProof proof = entry.getVerification().getInclusionProof();
    if (proof.getLogIndex() == null || proof.getLogIndex() != entry.getLogIndex()) {
      return Optional.of("is at index " + entry.getLogIndex() + " but its inclusion proof is for index " + proof.getLogIndex());
    }
    Long checkpointSize = proof.parsedCheckpoint().getSize();
    if (proof.getTreeSize() == null || !proof.getTreeSize().equals(checkpointSize)) {
      return Optional.of("has an inclusion proof in a tree of " + proof.getTreeSize() + " entries but a checkpoint for " + checkpointSize);
    }
    return Optional.empty();
  }

  private static VerificationOptions expecting(SigstoreSigner signer) {
    return VerificationOptions.builder()
        .addCertificateMatchers(VerificationOptions.CertificateMatcher.fulcio()
            .issuer(StringMatcher.string(signer.issuer()))
            .subjectAlternativeName(StringMatcher.string(signer.subject()))
            .build())
        .build();
  }
}
