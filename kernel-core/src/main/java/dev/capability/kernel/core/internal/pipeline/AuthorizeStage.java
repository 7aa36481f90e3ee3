package dev.capability.kernel.core.internal.pipeline;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.internal.authority.EffectiveAuthority;
import dev.capability.kernel.core.internal.policy.CommandAuthorizer;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Stage 3: the built-in rules, then the operator policy, decide the argv; then the layers below
 * the operator (contract, phase, correction) narrow it: the executable must be allowed by each,
 * and every typed write target must be writable under all of them and outside protected paths.
 */
final class AuthorizeStage implements Stage {
  private final ExecutionPolicy policy;
  private final CommandAuthorizer authorizer;

  AuthorizeStage(ExecutionPolicy policy, CommandAuthorizer authorizer) {
    this.policy = policy;
    this.authorizer = authorizer;
  }

  @Override
  public void apply(ExecutionContext context) {
    Path workspace = context.repository.orElse(context.workingDirectory);
    CommandAuthorizer.Authorization authorization = authorizer.authorize(policy, context.argv, Optional.of(workspace));
    if (!authorization.decision().allowed()) {
      context.deny(authorization.decision());
      return;
    }
    context.rule = authorization.rule();
    context.authority = EffectiveAuthority.of(policy, context.request.layers(), workspace);
    String ruleId = authorization.rule().orElseThrow().id();
    Decision narrowed = context.authority.authorize(ruleId, authorization.writeTargets(), context.workingDirectory);
    if (!narrowed.allowed()) {
      context.deny(narrowed);
      return;
    }
    context.decision = authorization.decision();
  }
}
