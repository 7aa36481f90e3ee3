package dev.capability.kernel.core.internal.pipeline;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ShellSyntaxException;
import dev.capability.kernel.core.internal.parse.CommandParser;

/** Stage 1: argv as given, or the command string split with POSIX word rules and no shell. */
final class ParseStage implements Stage {
  @Override
  public void apply(ExecutionContext context) {
    if (context.request.argv().isPresent()) {
      context.argv = context.request.argv().get();
      return;
    }
    try {
      context.argv = CommandParser.split(context.request.command().orElseThrow());
    } catch (ShellSyntaxException e) {
      context.deny(Decision.deny(
          ShellSyntaxException.CODE, "parser", e.construct(), e.getMessage()));
    }
  }
}
