package dev.capability.capability.runtime.acquire;

import dev.capability.capability.runtime.internal.acquire.SigstoreTrustFile;
import dev.capability.capability.runtime.internal.acquire.SigstoreVerifier;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The operator's Sigstore trust: a trusted root (the Fulcio CAs, Rekor logs and CT logs to
 * believe, read from a file and never fetched) and the signer identities expected, each bound to
 * the coordinates it may sign. The file format is described in {@code docs/acquisition.md}.
 */
public final class SigstoreTrust {
  private final Optional<SigstoreVerifier> verifier;

  private SigstoreTrust(Optional<SigstoreVerifier> verifier) {
    this.verifier = verifier;
  }

  /**
   * Reads a Sigstore trust file and the trusted root it names.
   *
   * @throws AcquisitionRefusedException {@link AcquisitionCodes#SIGSTORE_TRUST_INVALID}
   */
  public static SigstoreTrust load(Path file) {
    return new SigstoreTrust(Optional.of(new SigstoreVerifier(SigstoreTrustFile.load(Objects.requireNonNull(file, "file")))));
  }

  /** No Sigstore trust: bundles are recorded as present and left unchecked. */
  public static SigstoreTrust none() {
    return new SigstoreTrust(Optional.empty());
  }

  Optional<SigstoreVerifier> verifier() {
    return verifier;
  }
}
