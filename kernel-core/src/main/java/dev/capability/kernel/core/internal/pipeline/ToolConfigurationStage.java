package dev.capability.kernel.core.internal.pipeline;

import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.internal.authority.GitNeutralizer;
import dev.capability.kernel.core.internal.authority.ToolConfiguration;

/**
 * Tool configuration is part of the command: the repository files the policy names for the
 * executable are hashed (and must match their pins), and git gets the programs its configuration
 * names switched off in every repository it may open, unless the operator turned that off; with
 * them off, the request's repository and the work trees listed inside it are marked safe for git,
 * which the sandbox uid does not own.
 */
final class ToolConfigurationStage implements Stage {
  private final ExecutionPolicy policy;

  ToolConfigurationStage(ExecutionPolicy policy) {
    this.policy = policy;
  }

  @Override
  public void apply(ExecutionContext context) {
    context.launchArgv = context.argv;
    context.launchEnvironment = context.environment.variables();
    var rule = context.rule.orElseThrow();
    if (context.repository.isPresent()) {
      ToolConfiguration.State state = ToolConfiguration.inspect(context.repository.get(), rule);
      context.toolConfiguration.putAll(state.files());
      if (!state.decision().allowed()) {
        context.deny(state.decision());
        return;
      }
    }
    if (policy.neutralizeGit() && GitNeutralizer.appliesTo(rule)) {
      GitNeutralizer.Neutralized neutralized = GitNeutralizer.neutralize(
          context.argv, context.launchEnvironment, context.repository, context.workingDirectory);
      if (!neutralized.decision().allowed()) {
        context.deny(neutralized.decision());
        return;
      }
      context.launchArgv = neutralized.argv();
      context.launchEnvironment = neutralized.environment();
      context.neutralization = neutralized.configuration();
    }
  }
}
