package dev.capability.workflow;

/**
 * What the critic said about a phase's evidence.
 *
 * @param approved whether it exited 0
 * @param blocking whether the verdict gates completion (else it is advice)
 * @param run the critic's run
 */
public record CriticVerdict(boolean approved, boolean blocking, CommandRun run) {
  public CriticVerdict {
    java.util.Objects.requireNonNull(run, "run");
  }
}
