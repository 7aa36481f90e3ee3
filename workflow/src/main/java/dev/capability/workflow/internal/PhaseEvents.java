package dev.capability.workflow.internal;

/** The {@code event} of each phase record the work-plan layer writes. */
public final class PhaseEvents {
  private PhaseEvents() {}

  /** The phase became active; the body holds the working tree's manifest at that moment. */
  public static final String ACTIVATED = "ACTIVATED";
  /** A verification passed; the body is the verification. */
  public static final String VERIFIED = "VERIFIED";
  /** A verification failed; the body is the verification with its failure code. */
  public static final String VERIFICATION_FAILED = "VERIFICATION_FAILED";
  /** The phase completed; the body names the verification and the input tree hash. */
  public static final String COMPLETED = "COMPLETED";
  /** The agent reported token counters (numbers only) while the phase was active. */
  public static final String TOKENS = "TOKENS";
}
