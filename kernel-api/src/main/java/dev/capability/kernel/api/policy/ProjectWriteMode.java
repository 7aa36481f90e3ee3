package dev.capability.kernel.api.policy;

/** Whether commands may write into the target repository. */
public enum ProjectWriteMode {
  /** The repository is read-only to every command. */
  READ_ONLY,
  /** Commands may write only where the policy's write scopes allow. */
  SCOPED
}
