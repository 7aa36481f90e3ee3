package dev.capability.acquire;

import java.util.Objects;

/**
 * The result of one verification (integrity, signature, provenance, Sigstore bundle).
 *
 * @param status what was established
 * @param code for {@link Status#FAILED} the refusal code; for {@link Status#ABSENT} and {@link
 *     Status#UNVERIFIED} the code a policy that requires this check refuses with; for {@link
 *     Status#VERIFIED} empty
 * @param detail a plain sentence: what was checked against what
 */
public record Check(Status status, String code, String detail) {
  /** What a check established. */
  public enum Status {
    /** Checked and holds. */
    VERIFIED,
    /** Checked and does not hold: acquisition is refused whatever the policy. */
    FAILED,
    /** The evidence is not there. */
    ABSENT,
    /** The evidence is there and consistent as far as it was checked, but not fully verified. */
    UNVERIFIED
  }

  public Check {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(detail, "detail");
    if ((status == Status.VERIFIED) != code.isEmpty()) {
      throw new IllegalArgumentException("a verified check has no code and every other check has one: " + status + " " + code);
    }
  }

  public static Check verified(String detail) {
    return new Check(Status.VERIFIED, "", detail);
  }

  public static Check failed(String code, String detail) {
    return new Check(Status.FAILED, code, detail);
  }

  public static Check absent(String code, String detail) {
    return new Check(Status.ABSENT, code, detail);
  }

  public static Check unverified(String code, String detail) {
    return new Check(Status.UNVERIFIED, code, detail);
  }

  public boolean isVerified() {
    return status == Status.VERIFIED;
  }
}
