package dev.capability.acquire;

/**
 * Decides whether observed evidence is enough to accept a package. Policies only add
 * requirements: a failed check (a checksum mismatch, a bad signature, inconsistent provenance) and
 * missing integrity refuse before any policy is asked, so no policy can downgrade them. The
 * {@link TrustScore} is not an input and grants nothing. Built-in policies are in {@link
 * TrustPolicies}.
 */
public interface TrustPolicy {
  /** A short name, recorded with the decision. */
  String name();

  /** Decides on observations in which no check failed and integrity was verified. */
  TrustDecision decide(Observations observations);
}
