package dev.capability.acquire.sigstore;

import dev.capability.acquire.sigstore.internal.SigstoreTrustFile;
import dev.capability.acquire.sigstore.internal.SigstoreVerifier;
import dev.capability.acquire.spi.SigstoreBundleVerifier;
import dev.capability.acquire.spi.SigstoreVerifierProvider;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The Sigstore verifier this project ships: sigstore-java, offline, against the operator's trusted
 * root and expected signers. Registered for {@link java.util.ServiceLoader}; putting this module
 * on the class path is all an embedder does to verify Sigstore bundles.
 */
public final class SigstoreJavaVerifierProvider implements SigstoreVerifierProvider {
  /** This provider's id. */
  public static final String ID = "sigstore-java";

  /** Creates the provider; {@link java.util.ServiceLoader} calls this. */
  public SigstoreJavaVerifierProvider() {}

  @Override
  public String id() {
    return ID;
  }

  @Override
  public SigstoreBundleVerifier load(Path trustFile) {
    return new SigstoreVerifier(SigstoreTrustFile.load(Objects.requireNonNull(trustFile, "trustFile")));
  }
}
