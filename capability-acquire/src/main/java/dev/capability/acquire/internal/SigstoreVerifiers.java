package dev.capability.acquire.internal;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import dev.capability.acquire.spi.SigstoreVerifierProvider;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
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
    Map<String, SigstoreVerifierProvider> byId = new LinkedHashMap<>();
    for (SigstoreVerifierProvider provider : ServiceLoader.load(SigstoreVerifierProvider.class, loader)) {
      SigstoreVerifierProvider earlier = byId.putIfAbsent(provider.id(), provider);
      if (earlier != null) {
        throw new AcquisitionRefusedException(
            AcquisitionCodes.SIGSTORE_VERIFIER_DUPLICATE,
            "two Sigstore verifiers have the id '" + provider.id() + "': " + earlier.getClass().getName() + " and "
                + provider.getClass().getName() + "; keep one on the class path");
      }
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
