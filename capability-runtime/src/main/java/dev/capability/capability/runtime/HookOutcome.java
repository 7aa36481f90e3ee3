package dev.capability.capability.runtime;

import java.util.Objects;

/**
 * What happened to one lifecycle step of a run.
 *
 * @param hook the step: {@code execute}, {@code plan}, {@code verify} or {@code rollback}
 * @param status how it ended
 * @param detail a short explanation, empty when there is nothing to add
 */
public record HookOutcome(String hook, Status status, String detail) {
  /** How a lifecycle step ended. */
  public enum Status {
    SUCCEEDED,
    FAILED,
    ROLLED_BACK,
    ROLLBACK_FAILED
  }

  public HookOutcome {
    Objects.requireNonNull(hook, "hook");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(detail, "detail");
  }
}
