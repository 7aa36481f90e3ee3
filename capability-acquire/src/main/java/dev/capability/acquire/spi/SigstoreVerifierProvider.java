package dev.capability.acquire.spi;

import java.nio.file.Path;

/**
 * The Sigstore plug-in of acquisition, found with {@link java.util.ServiceLoader} (a {@code
 * META-INF/services/dev.capability.acquire.spi.SigstoreVerifierProvider} entry). Acquisition
 * itself carries no Sigstore library, so an embedder that verifies no Sigstore bundles does not
 * inherit one; {@code capability-acquire-sigstore} is the provider this project ships. Two
 * providers with the same id, or providers of different ids, on one class path are refused
 * ({@code SIGSTORE_VERIFIER_DUPLICATE}), naming their classes.
 */
public interface SigstoreVerifierProvider {
  /** A short stable name of this verifier, unique on a class path. */
  String id();

  /**
   * Reads the operator's Sigstore trust file (format in {@code docs/acquisition.md}) and the
   * trusted root it names, never fetching anything.
   *
   * @throws dev.capability.acquire.AcquisitionRefusedException {@code SIGSTORE_TRUST_INVALID}
   *     naming the file and what is wrong with it
   */
  SigstoreBundleVerifier load(Path trustFile);
}
