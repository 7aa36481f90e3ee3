package dev.capability.acquire.internal;

import dev.capability.acquire.Acquisition;
import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionListener;
import dev.capability.acquire.AcquisitionRefusedException;
import dev.capability.acquire.Check;
import dev.capability.acquire.Coordinates;
import dev.capability.acquire.Fetch;
import dev.capability.acquire.Observations;
import dev.capability.acquire.PackageSource;
import dev.capability.acquire.TrustDecision;
import dev.capability.acquire.TrustPolicy;
import dev.capability.acquire.TrustScore;
import dev.capability.acquire.spi.SigstoreBundleVerifier;
import dev.capability.acquire.spi.SigstoreOutcome;
import dev.capability.capability.runtime.support.UrlCredentials;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One acquisition, top to bottom: stage the artifact, fetch its side files, verify checksums,
 * signature, provenance (and its agreement with the POM's {@code <scm>}) and Sigstore bundle,
 * record observations, refuse on any failed check, ask the policy, then store or discard. The staged file is discarded on every path that does not store it.
 */
public final class AcquisitionPipeline {
  private static final int CHECKSUM_MAX_BYTES = 1024;
  private static final int SIGNATURE_MAX_BYTES = 64 * 1024;
  private static final int BUNDLE_MAX_BYTES = 1024 * 1024;
  /** The policy name on decisions made by a failed check, before any policy was asked. */
  public static final String VERIFICATION = "verification";

  private final PackageSource source;
  private final ContentStore store;
  private final SignatureVerifier signatures;
  private final Optional<SigstoreBundleVerifier> sigstoreVerifier;
  private final ProvenanceVerifier provenance;
  private final TrustPolicy policy;
  private final ProvenanceVerifier.Expectations expectations;
  private final long maxBytes;
  private final AcquisitionListener listener;

  public AcquisitionPipeline(
      PackageSource source,
      ContentStore store,
      Keyring keyring,
      Optional<SigstoreBundleVerifier> sigstoreVerifier,
      TrustPolicy policy,
      Optional<String> expectedRepository,
      Optional<String> expectedCommit,
      long maxBytes,
      AcquisitionListener listener) {
    this.source = source;
    this.store = store;
    this.signatures = new SignatureVerifier(keyring);
    this.sigstoreVerifier = sigstoreVerifier;
    this.provenance = new ProvenanceVerifier(signatures);
    this.policy = policy;
    this.expectations = new ProvenanceVerifier.Expectations(expectedRepository, expectedCommit);
    this.maxBytes = maxBytes;
    this.listener = listener;
  }

  public Acquisition acquire(Coordinates coordinates) {
    String path = coordinates.repositoryPath();
    String location = source.location(path);
    InputStream in = source.open(path).orElseThrow(
        () -> new AcquisitionRefusedException(AcquisitionCodes.ARTIFACT_NOT_FOUND, location + " does not exist"));
    listener.downloading(location);
    ContentStore.Staged staged = store.stage(in, maxBytes, location);
    boolean stored = false;
    try {
      List<Fetch> fetched = new ArrayList<>();
      record(fetched, new Fetch(location, true, staged.size(), staged.sha256()));
      String what = coordinates.fileName();

      Map<String, byte[]> checksums = new LinkedHashMap<>();
      for (String algorithm : ContentStore.ALGORITHMS) {
        side(path + "." + algorithm, CHECKSUM_MAX_BYTES, fetched).ifPresent(bytes -> checksums.put(algorithm, bytes));
      }
      Check integrity = ChecksumVerifier.verify(checksums, staged.digests(), what);

      Optional<byte[]> asc = side(path + ".asc", SIGNATURE_MAX_BYTES, fetched);
      SignatureVerifier.Outcome signature = asc.isPresent()
          ? signatures.verify(asc.get(), () -> Files.newInputStream(staged.file()), coordinates, what)
          : new SignatureVerifier.Outcome(Check.absent(AcquisitionCodes.SIGNATURE_MISSING, "the repository has no " + what + ".asc"), Optional.empty());

      ProvenanceVerifier.Outcome provenanceOutcome =
          scmAgreement(provenance(path, what, coordinates, staged.digests(), fetched), coordinates, path, fetched);

      Optional<byte[]> bundle = side(path + ".sigstore.json", BUNDLE_MAX_BYTES, fetched);
      SigstoreOutcome sigstore = bundle.isEmpty()
          ? SigstoreOutcome.absent(what)
          : sigstoreVerifier
              .map(verifier -> verifier.verify(bundle.get(), staged.sha256(), coordinates, what))
              .orElseGet(() -> SigstoreOutcome.unchecked(what));

      boolean failedSoFar = !integrity.isVerified()
          || signature.check().status() == Check.Status.FAILED
          || provenanceOutcome.check().status() == Check.Status.FAILED
          || sigstore.check().status() == Check.Status.FAILED;
      Check identity = failedSoFar
          ? Check.unverified(AcquisitionCodes.IDENTITY_UNCHECKED, "not inspected: an earlier check failed")
          : IdentityCheck.check(staged.file(), coordinates);

      Observations observations = new Observations(
          coordinates.toString(), source.describe(), fetched, staged.sha256(), staged.digests().get("sha512"), staged.size(),
          integrity, identity, signature.check(), signature.keyFingerprint(),
          provenanceOutcome.check(), provenanceOutcome.repository(), provenanceOutcome.commit(),
          sigstore.check(), sigstore.signer());
      Acquisition acquisition = conclude(store, staged, observations, checksums.containsKey("sha512"), policy);
      stored = acquisition.accepted();
      return acquisition;
    } finally {
      if (!stored) {
        store.discard(staged);
      }
    }
  }

  /**
   * Scores, refuses on any failed check or asks the policy, and stores the staged file when
   * accepted. The caller discards the staged file when the result is not accepted or this throws.
   */
  static Acquisition conclude(ContentStore store, ContentStore.Staged staged, Observations observations, boolean sha512, TrustPolicy policy) {
    TrustScore score = TrustScoring.score(observations, sha512);
    TrustDecision decision = observations.firstFailure()
        .map(failure -> TrustDecision.refuse(VERIFICATION, failure.code(), failure.detail()))
        .orElseGet(() -> decide(policy, observations));
    if (!decision.accepted()) {
      return new Acquisition(Optional.empty(), observations, score, decision);
    }
    Path storedPath = store.commit(staged, target -> new Acquisition(Optional.of(target), observations, score, decision).toJson());
    return new Acquisition(Optional.of(storedPath), observations, score, decision);
  }

  private static TrustDecision decide(TrustPolicy policy, Observations observations) {
    TrustDecision decision = policy.decide(observations);
    if (decision == null) {
      throw new IllegalStateException("trust policy " + policy.name() + " returned no decision");
    }
    return decision;
  }

  private ProvenanceVerifier.Outcome provenance(
      String path, String what, Coordinates coordinates, Map<String, String> digests, List<Fetch> fetched) {
    Optional<byte[]> statement = side(path + ".intoto.json", ProvenanceVerifier.MAX_BYTES, fetched);
    if (statement.isEmpty()) {
      return new ProvenanceVerifier.Outcome(
          Check.absent(AcquisitionCodes.PROVENANCE_MISSING, "the repository has no " + what + ".intoto.json"), Optional.empty(), Optional.empty());
    }
    Optional<byte[]> signature = side(path + ".intoto.json.asc", SIGNATURE_MAX_BYTES, fetched);
    return provenance.verify(statement.get(), signature, digests, coordinates, expectations);
  }

  /**
   * Compares the repository the provenance names with the repositories the POM's {@code <scm>}
   * names. A POM that names another repository, or that cannot be read, leaves the provenance
   * unverified: that refuses nothing by itself, but no policy that requires verified provenance
   * accepts it. The POM is fetched only when there is a repository to compare it with.
   */
  private ProvenanceVerifier.Outcome scmAgreement(
      ProvenanceVerifier.Outcome outcome, Coordinates coordinates, String path, List<Fetch> fetched) {
    Check check = outcome.check();
    if (check.status() == Check.Status.FAILED || check.status() == Check.Status.ABSENT || outcome.repository().isEmpty()) {
      return outcome;
    }
    String pomPath = path.substring(0, path.lastIndexOf('/') + 1) + coordinates.artifact() + "-" + coordinates.version() + ".pom";
    Optional<byte[]> pom = side(pomPath, PomScm.MAX_BYTES, fetched);
    if (pom.isEmpty()) {
      return outcome;
    }
    String repository = outcome.repository().get();
    String repositoryShown = UrlCredentials.redacted(repository);
    String before = check.isVerified()
        ? "the provenance is otherwise verified: " + check.detail()
        : "the provenance was already " + check.code() + ": " + check.detail();
    List<PomScm.Declared> declared;
    try {
      declared = PomScm.read(pom.get());
    } catch (PomScm.UnreadableException e) {
      return new ProvenanceVerifier.Outcome(
          Check.unverified(AcquisitionCodes.PROVENANCE_SCM_UNREADABLE,
              e.getMessage() + "; whether its <scm> names the provenance's repository " + repositoryShown + " is unknown (" + before + ")"),
          outcome.repository(), outcome.commit());
    }
    boolean compared = false;
    for (PomScm.Declared entry : declared) {
      if (entry.value().contains("${")) {
        continue;
      }
      if (!PomScm.sameRepository(entry.value(), repository)) {
        return new ProvenanceVerifier.Outcome(
            Check.unverified(AcquisitionCodes.PROVENANCE_SCM_MISMATCH,
                "the POM's <scm><" + entry.element() + "> names '" + PomScm.printable(UrlCredentials.redacted(entry.value()))
                    + "', another repository than the provenance's " + repositoryShown + " (" + before + ")"),
            outcome.repository(), outcome.commit());
      }
      compared = true;
    }
    if (!compared) {
      return outcome;
    }
    String agrees = check.detail() + "; the POM's <scm> names the same repository";
    return new ProvenanceVerifier.Outcome(
        check.isVerified() ? Check.verified(agrees) : Check.unverified(check.code(), agrees), outcome.repository(), outcome.commit());
  }

  private Optional<byte[]> side(String path, int limit, List<Fetch> fetched) {
    String location = source.location(path);
    Optional<InputStream> in = source.open(path);
    if (in.isEmpty()) {
      record(fetched, new Fetch(location, false, 0, ""));
      return Optional.empty();
    }
    byte[] bytes = SmallFiles.read(in.get(), limit, location);
    record(fetched, new Fetch(location, true, bytes.length, sha256(bytes)));
    return Optional.of(bytes);
  }

  private void record(List<Fetch> fetched, Fetch fetch) {
    fetched.add(fetch);
    listener.fetched(fetch);
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }
}
