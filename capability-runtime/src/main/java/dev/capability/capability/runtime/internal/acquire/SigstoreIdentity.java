package dev.capability.capability.runtime.internal.acquire;

import dev.capability.capability.runtime.acquire.Coordinates;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One signer the operator expects: the OIDC issuer that vouched for it (exact), its certificate's
 * subject alternative name (exact, or a pattern that must match all of it), and the coordinates it
 * may sign.
 */
public record SigstoreIdentity(String issuer, Pattern subject, List<CoordinatePattern> patterns) {
  public SigstoreIdentity {
    Objects.requireNonNull(issuer, "issuer");
    Objects.requireNonNull(subject, "subject");
    patterns = List.copyOf(patterns);
  }


  /** Whether a certificate with this issuer and subject is this identity's. */
  public boolean matches(String certificateIssuer, String certificateSubject) {
    return issuer.equals(certificateIssuer) && subject.matcher(certificateSubject).matches();
  }

  public boolean authorizes(Coordinates coordinates) {
    return patterns.stream().anyMatch(pattern -> pattern.matches(coordinates));
  }

  @Override
  public String toString() {
    return subject.pattern() + " from " + issuer + " for " + patterns;
  }
}
