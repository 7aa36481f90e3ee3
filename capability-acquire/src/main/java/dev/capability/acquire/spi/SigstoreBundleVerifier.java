package dev.capability.acquire.spi;

import dev.capability.acquire.Coordinates;

/** Verifies the Sigstore bundle beside an acquired file against the operator's Sigstore trust. */
public interface SigstoreBundleVerifier {
  /**
   * Verifies {@code bundleBytes} over the file whose SHA-256 is {@code sha256}. Never throws for a
   * bad bundle: each failure is an outcome with its own code.
   *
   * @param bundleBytes the bundle as fetched, untrusted
   * @param sha256 the file's SHA-256, lower-case hex
   * @param coordinates the coordinates acquired, which the signer must be authorized for
   * @param what the file's name, for messages
   */
  SigstoreOutcome verify(byte[] bundleBytes, String sha256, Coordinates coordinates, String what);
}
