package dev.capability.workflow;

import java.util.Objects;

/**
 * A non-blocking remark about a saved plan's evidence, stored with its revision.
 *
 * @param code one of the {@code WARN_} constants here
 * @param pointer the JSON pointer, in the plan, of what it is about ({@code ""} for the whole plan)
 * @param message what is weak and what would make it stronger
 */
public record PlanWarning(String code, String pointer, String message) {
  /** A {@code code} phase's acceptance commands contain no recognisable test, lint, type-check, build or syntax check. */
  public static final String NO_RECOGNISED_CHECK = "WARN_NO_RECOGNISED_CHECK";
  /** Unrelated phases (neither depends on the other) use the same command as evidence. */
  public static final String REUSED_COMMAND = "WARN_REUSED_COMMAND";
  /** An acceptance command only prints or copies ({@code echo}, {@code printf}, {@code cat}...): it proves nothing about the code. */
  public static final String WEAK_EVIDENCE = "WARN_WEAK_EVIDENCE";
  /** Deterministic evidence is weak and the critic is not blocking. */
  public static final String RECOMMEND_BLOCKING_CRITIC = "WARN_RECOMMEND_BLOCKING_CRITIC";

  public PlanWarning {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(pointer, "pointer");
    Objects.requireNonNull(message, "message");
  }
}
