package dev.capability.acquire.internal;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import dev.capability.acquire.spi.SigstoreVerifierProvider;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.plugin.Plugins;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Finds the Sigstore verifier plug-in. A class path holds at most one: two providers with one id
 * are refused naming both classes, and so are providers of different ids, since nothing would
 * say which of them verifies.
 */
public final class SigstoreVerifiers {
  private SigstoreVerifiers() {}

  /**
   * The one provider that {@code loader} sees, or empty when it sees none.
   *
   * @throws AcquisitionRefusedException {@link AcquisitionCodes#SIGSTORE_VERIFIER_DUPLICATE}
   */
  public static Optional<SigstoreVerifierProvider> find(ClassLoader loader) {
    Map<String, SigstoreVerifierProvider> byId;
    try {
      byId = Plugins.load(SigstoreVerifierProvider.class, SigstoreVerifierProvider::id, loader);
    } catch (CapabilityException e) {
      if (!e.code().equals(Plugins.DUPLICATE)) {
        throw e;
      }
      throw new AcquisitionRefusedException(
          AcquisitionCodes.SIGSTORE_VERIFIER_DUPLICATE, e.getMessage() + " (Sigstore verifiers)");
    }
    if (byId.size() > 1) {
      throw new AcquisitionRefusedException(
          AcquisitionCodes.SIGSTORE_VERIFIER_DUPLICATE,
          "several Sigstore verifiers are on the class path: "
              + byId.values().stream().map(p -> p.id() + " (" + p.getClass().getName() + ")").collect(Collectors.joining(", "))
              + "; keep one");
    }
    return byId.values().stream().findFirst();
  }
}
