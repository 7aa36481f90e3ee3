package dev.capability.workflow;

import dev.capability.kernel.api.Attestation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What verifying a phase found. A failure is a value: {@link #failureCode()} says which check
 * failed first (one of {@link WorkflowCodes}).
 *
 * @param workPlanId the plan
 * @param planRevision the revision in force
 * @param phaseId the phase verified
 * @param passed whether every command passed, nothing changed outside the phase's authority, no
 *     secret was found and a blocking critic approved
 * @param failureCode why not, when it did not pass
 * @param message what failed, for people
 * @param runs the commands run, in order; verification stops at the first that fails
 * @param ranFullSuite whether the full-suite command was run (and passed, when {@code passed})
 * @param changedPaths every path changed since the phase started
 * @param violations the changed paths the phase's authority does not allow
 * @param secrets secrets found in the changed files
 * @param critic the critic's verdict, when a critic ran
 * @param treeHash the Git tree id of the working tree after verification
 * @param contentDigest the digest of the working tree's content after verification; completion
 *     compares it with the tree then
 * @param sequence where the store recorded this verification
 */
public record PhaseVerification(
    String workPlanId,
    int planRevision,
    String phaseId,
    boolean passed,
    Optional<String> failureCode,
    String message,
    List<CommandRun> runs,
    boolean ranFullSuite,
    List<String> changedPaths,
    List<Attestation.Violation> violations,
    List<Attestation.SecretFinding> secrets,
    Optional<CriticVerdict> critic,
    String treeHash,
    String contentDigest,
    long sequence) {

  public PhaseVerification {
    Objects.requireNonNull(workPlanId, "workPlanId");
    Objects.requireNonNull(phaseId, "phaseId");
    Objects.requireNonNull(failureCode, "failureCode");
    if (passed == failureCode.isPresent()) {
      throw new IllegalArgumentException("a verification has a failure code exactly when it did not pass");
    }
    Objects.requireNonNull(message, "message");
    runs = List.copyOf(runs);
    changedPaths = List.copyOf(changedPaths);
    violations = List.copyOf(violations);
    secrets = List.copyOf(secrets);
    Objects.requireNonNull(critic, "critic");
    Objects.requireNonNull(treeHash, "treeHash");
    Objects.requireNonNull(contentDigest, "contentDigest");
  }
}
