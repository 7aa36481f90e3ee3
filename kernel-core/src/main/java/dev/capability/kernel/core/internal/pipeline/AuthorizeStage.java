package dev.capability.kernel.core.internal.pipeline;

import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.internal.policy.CommandAuthorizer;

/** Stage 3: the built-in rules, then the operator policy, decide the argv. */
final class AuthorizeStage implements Stage {
  private final ExecutionPolicy policy;
  private final CommandAuthorizer authorizer;

  AuthorizeStage(ExecutionPolicy policy, CommandAuthorizer authorizer) {
    this.policy = policy;
    this.authorizer = authorizer;
  }

  @Override
  public void apply(ExecutionContext context) {
    var workspace = context.repository.isPresent() ? context.repository : java.util.Optional.of(context.workingDirectory);
    CommandAuthorizer.Authorization authorization = authorizer.authorize(policy, context.argv, workspace);
    if (!authorization.decision().allowed()) {
      context.deny(authorization.decision());
      return;
    }
    context.decision = authorization.decision();
    context.rule = authorization.rule();
  }
}
