package dev.capability.kernel.core.internal.pipeline;

import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.internal.policy.EnvironmentSanitizer;
import java.util.Map;

/**
 * Stage 5 (run before resolution, which searches the sanitized {@code PATH}): the command gets
 * only the inherited names the policy allows plus the operator's fixed values.
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
    context.environment = sanitizer.sanitize(policy, hostEnvironment);
  }
}
