package dev.capability.workflow;

import java.util.List;
import java.util.Objects;

/**
 * An assumption an agent recorded while working a phase, and the explicit links that say what
 * depends on it. The confidence is metadata the agent wrote, not a probability: nothing is
 * computed from it.
 *
 * @param id the assumption's id
 * @param workPlanId the work plan it was made under
 * @param phaseId the phase it was made in (the phase active when it was recorded)
 * @param statement what was assumed
 * @param rejectedAlternatives what the agent considered and did not assume
 * @param confidence the agent's confidence, a number from 0 to 1
 * @param files repository-relative paths or write-scope globs of the files that depend on it
 * @param phases ids of the plan's phases that depend on it
 * @param dependents ids of recorded assumptions that depend on it
 */
public record Assumption(
    String id,
    String workPlanId,
    String phaseId,
    String statement,
    List<String> rejectedAlternatives,
    double confidence,
    List<String> files,
    List<String> phases,
    List<String> dependents) {
  public Assumption {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(workPlanId, "workPlanId");
    Objects.requireNonNull(phaseId, "phaseId");
    Objects.requireNonNull(statement, "statement");
    rejectedAlternatives = List.copyOf(rejectedAlternatives);
    requireConfidence(confidence);
    files = List.copyOf(files);
    phases = List.copyOf(phases);
    dependents = List.copyOf(dependents);
  }

  /**
   * Refuses a confidence that is not a finite number from 0 to 1 inclusive; it is never clamped.
   *
   * @throws WorkflowException {@code ASSUMPTION_CONFIDENCE_INVALID}
   */
  static void requireConfidence(double confidence) {
    if (Double.isNaN(confidence) || Double.isInfinite(confidence) || confidence < 0 || confidence > 1) {
      throw new WorkflowException(AssumptionCodes.ASSUMPTION_CONFIDENCE_INVALID, "the assumption at /confidence: " + confidence
          + " is not a number from 0 to 1; a confidence is refused, never clamped");
    }
  }
}
