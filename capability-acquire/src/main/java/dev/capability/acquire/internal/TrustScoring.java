package dev.capability.acquire.internal;

import dev.capability.acquire.Check;
import dev.capability.acquire.Observations;
import dev.capability.acquire.TrustScore;
import java.util.List;

/** Itemizes observations into an advisory score out of 100. */
public final class TrustScoring {
  private TrustScoring() {}

  /** @param sha512 whether the integrity that was verified includes SHA-512 */
  public static TrustScore score(Observations observations, boolean sha512) {
    return TrustScore.of(List.of(
        integrity(observations, sha512),
        component("signature", observations.signature(), 30, 0),
        component("provenance", observations.provenance(), 30, 10),
        component("sigstore", observations.sigstore(), 15, 0)));
  }

  private static TrustScore.Component integrity(Observations observations, boolean sha512) {
    Check integrity = observations.integrity();
    if (!integrity.isVerified()) {
      return new TrustScore.Component("integrity", 0, 25, integrity.status() + " " + integrity.code());
    }
    int points = sha512 ? 25 : 20;
    return new TrustScore.Component("integrity", points, 25, integrity.detail());
  }

  private static TrustScore.Component component(String name, Check check, int verified, int unverified) {
    return switch (check.status()) {
      case VERIFIED -> new TrustScore.Component(name, verified, verified, check.detail());
      case UNVERIFIED -> new TrustScore.Component(name, unverified, verified, check.code() + ": " + check.detail());
      case ABSENT, FAILED -> new TrustScore.Component(name, 0, verified, check.status() + " " + check.code());
    };
  }
}
