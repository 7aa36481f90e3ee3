package dev.capability.kernel.core.internal.pipeline;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.internal.policy.EnvironmentSanitizer;
import dev.capability.kernel.core.internal.policy.RequestEnvironmentChecks;
import java.util.Map;
import java.util.Optional;

/**
 * Stage 5 (run before resolution, which searches the sanitized {@code PATH}): the command gets
 * only the inherited names the policy allows, the operator's fixed values, and the request's own
 * variables for the names the policy lets requests give (never {@code PATH}); any other request
 * variable denies the command.
 */
final class EnvironmentStage implements Stage {
  private final ExecutionPolicy policy;
  private final EnvironmentSanitizer sanitizer;
  private final Map<String, String> hostEnvironment;

  EnvironmentStage(ExecutionPolicy policy, EnvironmentSanitizer sanitizer, Map<String, String> hostEnvironment) {
    this.policy = policy;
    this.sanitizer = sanitizer;
    this.hostEnvironment = Map.copyOf(hostEnvironment);
  }

  @Override
  public void apply(ExecutionContext context) {
    Map<String, String> requested = context.request.environment();
    Optional<Decision> refusal = RequestEnvironmentChecks.refusal(policy, requested);
    if (refusal.isPresent()) {
      context.deny(refusal.get());
      return;
    }
    context.environment = sanitizer.sanitize(policy, hostEnvironment, requested);
  }
}
