package dev.capability.capability.runtime;

import dev.capability.kernel.api.Attestation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What an {@link Executor} reports back.
 *
 * @param succeeded whether {@code execute} returned and every declared hook succeeded
 * @param output the output JSON text, when {@code execute} returned one
 * @param failure why the run failed, when it did
 * @param boundaryApplied whether an isolation boundary separated the capability from the host
 * @param attestation the kernel's attestation of the launch, when the executor used the kernel
 * @param hooks the lifecycle steps in the order they ran, as reported from inside the boundary
 * @param usedEffects granted effects the host observed being used (see {@link
 *     ExecutionReceipt#usedEffects()}); empty when the executor observes nothing
 * @param violations effects the capability attempted beyond its grants that the boundary refused
 *     and the host observed (see {@link ExecutionReceipt#violations()}); empty when the executor
 *     observes none
 */
public record CapabilityResult(
    boolean succeeded,
    Optional<String> output,
    Optional<String> failure,
    boolean boundaryApplied,
    Optional<Attestation> attestation,
    List<HookOutcome> hooks,
    List<Effect> usedEffects,
    List<EffectViolation> violations) {
  public CapabilityResult {
    usedEffects = List.copyOf(Objects.requireNonNull(usedEffects, "usedEffects"));
    violations = List.copyOf(Objects.requireNonNull(violations, "violations"));
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(attestation, "attestation");
    hooks = List.copyOf(Objects.requireNonNull(hooks, "hooks"));
    if (succeeded == failure.isPresent()) {
      throw new IllegalArgumentException("a result names a failure exactly when it did not succeed");
    }
  }
}
