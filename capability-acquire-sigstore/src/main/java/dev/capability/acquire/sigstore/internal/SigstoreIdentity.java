package dev.capability.acquire.sigstore.internal;

import dev.capability.acquire.Coordinates;
import dev.capability.acquire.spi.CoordinatePattern;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One signer the operator expects: the OIDC issuer that vouched for it (exact), its certificate's
 * subject alternative name (exact, or a pattern that must match all of it), optionally the source
 * repository the certificate must name (exact), and the coordinates it may sign.
 */
public record SigstoreIdentity(String issuer, Pattern subject, Optional<String> sourceRepository, List<CoordinatePattern> patterns) {
  public SigstoreIdentity {
    Objects.requireNonNull(issuer, "issuer");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(sourceRepository, "sourceRepository");
    patterns = List.copyOf(patterns);
  }

  /** Whether a certificate issued to {@code signer} is this identity's. */
  boolean matches(SigstoreSigner signer) {
    return issuer.equals(signer.issuer())
        && subject.matcher(signer.subject()).matches()
        && (sourceRepository.isEmpty() || sourceRepository.equals(signer.sourceRepository()));
  }

  public boolean authorizes(Coordinates coordinates) {
    return patterns.stream().anyMatch(pattern -> pattern.matches(coordinates));
  }

  @Override
  public String toString() {
    return subject.pattern() + " from " + issuer + sourceRepository.map(repository -> " in " + repository).orElse("") + " for " + patterns;
  }
}
