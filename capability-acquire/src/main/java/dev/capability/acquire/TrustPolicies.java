package dev.capability.acquire;

import dev.capability.acquire.internal.RequirementPolicy;
import java.nio.file.Path;
import java.util.Objects;

/** The built-in {@link TrustPolicy}s and the policy file form. */
public final class TrustPolicies {
  private TrustPolicies() {}

  /**
   * Exact identity (exact coordinates, and a manifest declaring that artifact id and version),
   * verified integrity, a verified signature by a key authorized for the coordinates, and
   * verified provenance (consistent, signed, naming the expected repository). A Sigstore bundle is
   * not required; one that is present and fails refuses, as under every policy.
   */
  public static TrustPolicy strict() {
    return new RequirementPolicy("strict", true, true, true, false);
  }

  /**
   * Verified integrity; a signature and provenance are verified when present and refuse when they
   * fail, but their absence is only recorded.
   */
  public static TrustPolicy standard() {
    return new RequirementPolicy("default", false, false, false, false);
  }

  /**
   * A policy file: {@code {"name": "...", "requireIdentity": true|false, "requireSignature":
   * true|false, "requireProvenance": true|false, "requireSigstore": true|false}}; {@code
   * requireIdentity} and {@code requireSigstore} may be left out (false)
   * (schema {@code docs/schemas/trust-policy.schema.json}).
   *
   * @throws AcquisitionRefusedException {@link AcquisitionCodes#TRUST_POLICY_INVALID}
   */
  public static TrustPolicy fromFile(Path file) {
    return RequirementPolicy.load(Objects.requireNonNull(file, "file"));
  }

  /** {@code strict}, {@code default}, or else the path of a policy file. */
  public static TrustPolicy named(String nameOrFile) {
    return switch (Objects.requireNonNull(nameOrFile, "nameOrFile")) {
      case "strict" -> strict();
      case "default" -> standard();
      default -> fromFile(Path.of(nameOrFile));
    };
  }
}
