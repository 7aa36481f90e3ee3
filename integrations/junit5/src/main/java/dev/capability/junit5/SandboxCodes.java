package dev.capability.junit5;

/**
 * Codes of the {@link dev.capability.kernel.api.CapabilityException}s a {@link CapabilitySandbox}
 * throws when it is configured wrongly or cannot set a test up; each fails the test (it is never
 * skipped). Listed in {@code docs/integrations.md}.
 */
public final class SandboxCodes {
  /** The policy (or capability policy) names a class-path resource that does not exist. */
  public static final String SANDBOX_POLICY_NOT_FOUND = "SANDBOX_POLICY_NOT_FOUND";

  /** No installed backend has the id the annotation names; the message lists the installed ones. */
  public static final String SANDBOX_BACKEND_UNKNOWN = "SANDBOX_BACKEND_UNKNOWN";

  /** The temporary repository, policy file or ledger could not be made (a file-system or {@code git} failure). */
  public static final String SANDBOX_SETUP_FAILED = "SANDBOX_SETUP_FAILED";

  private SandboxCodes() {}
}
