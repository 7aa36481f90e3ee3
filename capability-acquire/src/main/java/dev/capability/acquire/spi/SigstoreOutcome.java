package dev.capability.acquire.spi;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.Check;
import java.util.Objects;
import java.util.Optional;

/**
 * A Sigstore verification's check, and the signer when its certificate was trusted.
 *
 * @param check the outcome recorded as the acquisition's {@code sigstore} observation
 * @param signer the certificate's identity, when the certificate chained to the trusted root
 */
public record SigstoreOutcome(Check check, Optional<String> signer) {
  public SigstoreOutcome {
    Objects.requireNonNull(check, "check");
    Objects.requireNonNull(signer, "signer");
  }

  /**
   * A failed check with {@code code}, before any signer was trusted; a check that failed after the
   * certificate was trusted names its signer through the constructor.
   */
  public static SigstoreOutcome failed(String code, String detail) {
    return new SigstoreOutcome(Check.failed(code, detail), Optional.empty());
  }

  /** The outcome when the repository has no bundle. */
  public static SigstoreOutcome absent(String what) {
    return new SigstoreOutcome(Check.absent(AcquisitionCodes.SIGSTORE_MISSING, "the repository has no " + what + ".sigstore.json"), Optional.empty());
  }

  /** The outcome when a bundle is present but the operator configured no Sigstore trust. */
  public static SigstoreOutcome unchecked(String what) {
    return new SigstoreOutcome(
        Check.unverified(
            AcquisitionCodes.SIGSTORE_UNCHECKED,
            "the repository has " + what + ".sigstore.json but no Sigstore trust is configured (--sigstore), so it was not checked"),
        Optional.empty());
  }
}
