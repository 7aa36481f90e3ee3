package dev.capability.workflow;

/** How much a project contract demands of a work plan's evidence. */
public enum Assurance {
  /** Acceptance commands must be allowed and shell-free; weak evidence is warned about. */
  STANDARD,
  /**
   * Acceptance commands must be the operator policy's exact argument lists, and a blocking critic
   * is required; a plan that does not meet this is refused.
   */
  HIGH;

  /** The name in JSON: {@code standard} or {@code high}. */
  public String jsonName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
