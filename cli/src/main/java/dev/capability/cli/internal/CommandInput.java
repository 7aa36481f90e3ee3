package dev.capability.cli.internal;

import dev.capability.kernel.api.ExecutionRequest;
import java.util.List;

/** Turns what the user typed (argv after {@code --}, or a command string) into a request builder. */
final class CommandInput {
  private CommandInput() {}

  static ExecutionRequest.Builder request(List<String> argv, String command) {
    if (argv != null && !argv.isEmpty()) {
      return ExecutionRequest.argv(argv);
    }
    return ExecutionRequest.command(command);
  }
}
