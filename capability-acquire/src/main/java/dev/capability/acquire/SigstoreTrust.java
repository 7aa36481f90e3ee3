package dev.capability.acquire;

import dev.capability.acquire.internal.SigstoreVerifiers;
import dev.capability.acquire.spi.SigstoreBundleVerifier;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The operator's Sigstore trust: a trusted root (the Fulcio CAs, Rekor logs and CT logs to
 * believe, read from a file and never fetched) and the signer identities expected, each bound to
 * the coordinates it may sign. The file format is described in {@code docs/acquisition.md}.
 * Verifying needs the Sigstore plug-in ({@code capability-acquire-sigstore}) on the class path.
 */
public final class SigstoreTrust {
  private final Optional<SigstoreBundleVerifier> verifier;

  private SigstoreTrust(Optional<SigstoreBundleVerifier> verifier) {
    this.verifier = verifier;
  }

  /**
   * Reads a Sigstore trust file and the trusted root it names, with the Sigstore verifier found on
   * the class path that loaded this class.
   *
   * @throws AcquisitionRefusedException {@link AcquisitionCodes#SIGSTORE_TRUST_INVALID}; {@link
   *     AcquisitionCodes#SIGSTORE_VERIFIER_MISSING} when no verifier is on the class path, so a
   *     trust the operator gave is never silently left unused; {@link
   *     AcquisitionCodes#SIGSTORE_VERIFIER_DUPLICATE} when more than one is
   */
  public static SigstoreTrust load(Path file) {
    Objects.requireNonNull(file, "file");
    return new SigstoreTrust(Optional.of(
        SigstoreVerifiers.find(SigstoreTrust.class.getClassLoader())
            .orElseThrow(() -> new AcquisitionRefusedException(
                AcquisitionCodes.SIGSTORE_VERIFIER_MISSING,
                "the Sigstore trust " + file + " was given but no Sigstore verifier is on the class path;"
                    + " add capability-acquire-sigstore to verify Sigstore bundles"))
            .load(file)));
  }

  /** No Sigstore trust: bundles are recorded as present and left unchecked. */
  public static SigstoreTrust none() {
    return new SigstoreTrust(Optional.empty());
  }

  Optional<SigstoreBundleVerifier> verifier() {
    return verifier;
  }
}
