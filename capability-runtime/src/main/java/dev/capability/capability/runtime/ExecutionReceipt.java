package dev.capability.capability.runtime;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.Sha256;
import java.nio.charset.StandardCharsets;
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
 * @param inputJson the input as given, or its digest once {@linkplain #redacted() redacted}
 * @param output the output, when the capability returned one, or its digest once redacted
 * @param declaredEffects what the package declared
 * @param grantedEffects what the policy granted (empty for a refusal)
 * @param usedEffects the granted effects the host observed being used: a {@code filesystem.write}
 *     grant under which the kernel's audit saw a file created, modified or deleted, and a {@code
 *     network.connect} grant to which the run's egress proxy relayed a connection (the attestation's
 *     {@code egress} has each connection and its bytes). Reads leave nothing the host can observe
 *     and are never listed; an in-process run observes nothing
 * @param violations the effects the capability attempted beyond its grants that the boundary
 *     refused and the host observed: each connection the egress proxy refused, in order. A
 *     violation does not change the outcome (the capability saw the refusal and may have handled
 *     it); empty for a refused run and an in-process one
 * @param executorId the executor that ran it, or would have
 * @param boundaryApplied whether an isolation boundary applied; {@code false} for in-process runs
 * @param attestation the kernel's attestation of the launch, when there was one; {@link
 *     ExecutionReceipts#toJson} writes it in its JSON form ({@link
 *     dev.capability.kernel.api.AttestationJson#toMap})
 * @param hooks the lifecycle steps in the order they ran, as reported from inside the boundary
 *     (the capability's own code shares that boundary, so these are its claims, not the host's
 *     observations)
 * @param outcome how the run ended
 * @param code a stable code: {@code SUCCEEDED}, or why it failed or was refused
 * @param message a human explanation
 * @param startedAt when the runtime started planning
 * @param finishedAt when the runtime finished
 * @param redacted whether input and output were replaced by {@code sha256:<hex>} of their text
 */
public record ExecutionReceipt(
    String planFingerprint,
    String capability,
    String inputJson,
    Optional<String> output,
    List<Effect> declaredEffects,
    List<Effect> grantedEffects,
    List<Effect> usedEffects,
    List<EffectViolation> violations,
    String executorId,
    boolean boundaryApplied,
    Optional<Attestation> attestation,
    List<HookOutcome> hooks,
    ExecutionOutcome outcome,
    String code,
    String message,
    Instant startedAt,
    Instant finishedAt,
    boolean redacted) {
  public ExecutionReceipt {
    Objects.requireNonNull(planFingerprint, "planFingerprint");
    Objects.requireNonNull(capability, "capability");
    Objects.requireNonNull(inputJson, "inputJson");
    Objects.requireNonNull(output, "output");
    declaredEffects = List.copyOf(Objects.requireNonNull(declaredEffects, "declaredEffects"));
    grantedEffects = List.copyOf(Objects.requireNonNull(grantedEffects, "grantedEffects"));
    usedEffects = List.copyOf(Objects.requireNonNull(usedEffects, "usedEffects"));
    if (!grantedEffects.containsAll(usedEffects)) {
      throw new IllegalArgumentException("only granted effects can be used");
    }
    violations = List.copyOf(Objects.requireNonNull(violations, "violations"));
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

  /**
   * This receipt with the input and output replaced by {@code sha256:<hex>} of their UTF-8 text:
   * what they were can still be checked against a copy kept elsewhere, but the receipt no longer
   * holds them. Everything else, the plan fingerprint included, stays.
   */
  public ExecutionReceipt redact() {
    if (redacted) {
      return this;
    }
    return new ExecutionReceipt(
        planFingerprint,
        capability,
        digest(inputJson),
        output.map(ExecutionReceipt::digest),
        declaredEffects,
        grantedEffects,
        usedEffects,
        violations,
        executorId,
        boundaryApplied,
        attestation,
        hooks,
        outcome,
        code,
        message,
        startedAt,
        finishedAt,
        true);
  }

  private static String digest(String text) {
    return "sha256:" + Sha256.hex(text.getBytes(StandardCharsets.UTF_8));
  }
}
