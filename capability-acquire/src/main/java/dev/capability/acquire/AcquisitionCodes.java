package dev.capability.acquire;

/**
 * The stable codes of every refusal during acquisition, as found in {@link
 * dev.capability.kernel.api.CapabilityException#code()} and {@link TrustDecision#code()}. Scripts
 * and the CLI depend on them; {@code docs/acquisition.md} explains each.
 */
public final class AcquisitionCodes {
  private AcquisitionCodes() {}

  // Coordinates.
  public static final String COORDINATES_MALFORMED = "COORDINATES_MALFORMED";
  public static final String COORDINATES_RANGE = "COORDINATES_RANGE";
  public static final String COORDINATES_NOT_EXACT = "COORDINATES_NOT_EXACT";
  public static final String COORDINATES_SNAPSHOT = "COORDINATES_SNAPSHOT";

  // Sources and downloads.
  public static final String SOURCE_INVALID = "SOURCE_INVALID";
  public static final String SOURCE_INSECURE = "SOURCE_INSECURE";
  public static final String SOURCE_REDIRECT = "SOURCE_REDIRECT";
  public static final String SOURCE_UNAVAILABLE = "SOURCE_UNAVAILABLE";
  public static final String ARTIFACT_NOT_FOUND = "ARTIFACT_NOT_FOUND";
  public static final String DOWNLOAD_TOO_LARGE = "DOWNLOAD_TOO_LARGE";
  public static final String DOWNLOAD_TIMED_OUT = "DOWNLOAD_TIMED_OUT";
  public static final String STORE_FAILED = "STORE_FAILED";
  public static final String NPM_MANIFEST_INVALID = "NPM_MANIFEST_INVALID";
  public static final String NPM_TARBALL_ORIGIN = "NPM_TARBALL_ORIGIN";

  // Integrity.
  public static final String CHECKSUM_MISSING = "CHECKSUM_MISSING";
  public static final String CHECKSUM_WEAK_ONLY = "CHECKSUM_WEAK_ONLY";
  public static final String CHECKSUM_MISMATCH = "CHECKSUM_MISMATCH";
  public static final String CHECKSUM_MALFORMED = "CHECKSUM_MALFORMED";

  // Signatures.
  public static final String KEYRING_INVALID = "KEYRING_INVALID";
  public static final String SIGNATURE_MISSING = "SIGNATURE_MISSING";
  public static final String SIGNATURE_UNKNOWN_KEY = "SIGNATURE_UNKNOWN_KEY";
  public static final String SIGNATURE_KEY_NOT_AUTHORIZED = "SIGNATURE_KEY_NOT_AUTHORIZED";
  public static final String SIGNATURE_KEY_REVOKED = "SIGNATURE_KEY_REVOKED";
  public static final String SIGNATURE_KEY_EXPIRED = "SIGNATURE_KEY_EXPIRED";
  public static final String SIGNATURE_KEY_UNBOUND = "SIGNATURE_KEY_UNBOUND";
  public static final String SIGNATURE_INVALID = "SIGNATURE_INVALID";

  // Provenance.
  public static final String PROVENANCE_MISSING = "PROVENANCE_MISSING";
  public static final String PROVENANCE_INVALID = "PROVENANCE_INVALID";
  public static final String PROVENANCE_SUBJECT_MISMATCH = "PROVENANCE_SUBJECT_MISMATCH";
  public static final String PROVENANCE_DIGEST_UNSUPPORTED = "PROVENANCE_DIGEST_UNSUPPORTED";
  public static final String PROVENANCE_REPOSITORY_MISMATCH = "PROVENANCE_REPOSITORY_MISMATCH";
  public static final String PROVENANCE_REPOSITORY_UNCHECKED = "PROVENANCE_REPOSITORY_UNCHECKED";
  public static final String PROVENANCE_COMMIT_INVALID = "PROVENANCE_COMMIT_INVALID";
  public static final String PROVENANCE_COMMIT_MISMATCH = "PROVENANCE_COMMIT_MISMATCH";
  public static final String PROVENANCE_UNSIGNED = "PROVENANCE_UNSIGNED";
  public static final String PROVENANCE_SIGNATURE_INVALID = "PROVENANCE_SIGNATURE_INVALID";
  public static final String PROVENANCE_NOT_VERIFIED = "PROVENANCE_NOT_VERIFIED";
  public static final String PROVENANCE_SCM_MISMATCH = "PROVENANCE_SCM_MISMATCH";
  public static final String PROVENANCE_SCM_UNREADABLE = "PROVENANCE_SCM_UNREADABLE";

  // Identity: the package's manifest against the coordinates.
  public static final String IDENTITY_MISMATCH = "IDENTITY_MISMATCH";
  public static final String IDENTITY_UNCHECKED = "IDENTITY_UNCHECKED";

  // Sigstore bundles.
  public static final String SIGSTORE_TRUST_INVALID = "SIGSTORE_TRUST_INVALID";
  public static final String SIGSTORE_MISSING = "SIGSTORE_MISSING";
  public static final String SIGSTORE_UNCHECKED = "SIGSTORE_UNCHECKED";
  public static final String SIGSTORE_BUNDLE_INVALID = "SIGSTORE_BUNDLE_INVALID";
  public static final String SIGSTORE_CERTIFICATE_UNTRUSTED = "SIGSTORE_CERTIFICATE_UNTRUSTED";
  public static final String SIGSTORE_IDENTITY_UNKNOWN = "SIGSTORE_IDENTITY_UNKNOWN";
  public static final String SIGSTORE_IDENTITY_NOT_AUTHORIZED = "SIGSTORE_IDENTITY_NOT_AUTHORIZED";
  public static final String SIGSTORE_TLOG_INVALID = "SIGSTORE_TLOG_INVALID";
  public static final String SIGSTORE_SIGNATURE_INVALID = "SIGSTORE_SIGNATURE_INVALID";
  /** A Sigstore trust was given but no Sigstore verifier (capability-acquire-sigstore) is on the class path. */
  public static final String SIGSTORE_VERIFIER_MISSING = "SIGSTORE_VERIFIER_MISSING";
  /** More than one Sigstore verifier is on the class path; the message names their classes. */
  public static final String SIGSTORE_VERIFIER_DUPLICATE = "SIGSTORE_VERIFIER_DUPLICATE";

  // Trust policies.
  public static final String TRUST_POLICY_INVALID = "TRUST_POLICY_INVALID";
  public static final String ACQUIRED = "ACQUIRED";
}
