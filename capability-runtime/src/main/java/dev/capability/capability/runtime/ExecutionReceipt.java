package dev.capability.capability.runtime;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the runtime did with one plan. A receipt records; it does not prove the capability was
 * correct.
 *
 * @param planFingerprint the fingerprint of the plan the policy decided on
 * @param capability {@code name@version}
 * @param inputJson the input as given
 * @param output the output, when the capability returned one
 * @param declaredEffects what the package declared
 * @param grantedEffects what the policy granted (empty for a refusal)
 * @param executorId the executor that ran it, or would have
 * @param boundaryApplied whether an isolation boundary applied; {@code false} for in-process runs
 * @param attestation the kernel's attestation of the launch, when there was one
 * @param hooks the lifecycle steps in the order they ran
 * @param outcome how the run ended
 * @param code a stable code: {@code SUCCEEDED}, or why it failed or was refused
 * @param message a human explanation
 * @param startedAt when the runtime started planning
 * @param finishedAt when the runtime finished
 */
public record ExecutionReceipt(
    String planFingerprint,
    String capability,
    String inputJson,
    Optional<String> output,
    List<Effect> declaredEffects,
    List<Effect> grantedEffects,
    String executorId,
    boolean boundaryApplied,
    Optional<String> attestation,
    List<HookOutcome> hooks,
    ExecutionOutcome outcome,
    String code,
    String message,
    Instant startedAt,
    Instant finishedAt) {
  public ExecutionReceipt {
    Objects.requireNonNull(planFingerprint, "planFingerprint");
    Objects.requireNonNull(capability, "capability");
    Objects.requireNonNull(inputJson, "inputJson");
    Objects.requireNonNull(output, "output");
    declaredEffects = List.copyOf(Objects.requireNonNull(declaredEffects, "declaredEffects"));
    grantedEffects = List.copyOf(Objects.requireNonNull(grantedEffects, "grantedEffects"));
    Objects.requireNonNull(executorId, "executorId");
    Objects.requireNonNull(attestation, "attestation");
    hooks = List.copyOf(Objects.requireNonNull(hooks, "hooks"));
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(finishedAt, "finishedAt");
    if (outcome == ExecutionOutcome.REFUSED && !grantedEffects.isEmpty()) {
      throw new IllegalArgumentException("a refused run was granted nothing");
    }
  }
}
