package dev.capability.workflow;

import dev.capability.kernel.api.store.PlaybookPattern;
import java.util.Objects;

/**
 * A "watch out" hint for a saved plan: a correction anti-pattern the operator's playbook recorded
 * before, on files of the languages and roles a phase is about to write. Advice only: it grants
 * and removes nothing.
 *
 * @param phaseId the phase it concerns
 * @param pointer the JSON pointer, in the plan, of that phase's write scopes
 * @param pattern the anti-pattern and how often it was recorded
 * @param message the hint, for the agent and for people
 */
public record PlaybookHint(String phaseId, String pointer, PlaybookPattern pattern, String message) {
  public PlaybookHint {
    Objects.requireNonNull(phaseId, "phaseId");
    Objects.requireNonNull(pointer, "pointer");
    Objects.requireNonNull(pattern, "pattern");
    Objects.requireNonNull(message, "message");
  }
}
