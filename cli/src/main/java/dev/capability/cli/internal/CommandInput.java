package dev.capability.cli.internal;

import dev.capability.kernel.api.ExecutionRequest;
import java.util.List;

/** Turns what the user typed (argv after {@code --}, or a command string) into a request builder. */
final class CommandInput {
  private CommandInput() {}

  /**
   * The request for {@code argv}, or for {@code command} when there is no argv.
   *
   * @throws dev.capability.kernel.api.CapabilityException {@code INPUT_NOT_UTF8} when a word or the
   *     command string came from command-line bytes that are not UTF-8
   */
  static ExecutionRequest.Builder request(Console console, List<String> argv, String command) {
    if (argv != null && !argv.isEmpty()) {
      for (int i = 0; i < argv.size(); i++) {
        console.requireUtf8Argument(argv.get(i), "argv[" + i + "]");
      }
      return ExecutionRequest.argv(argv);
    }
    console.requireUtf8Argument(command, "the command string");
    return ExecutionRequest.command(command);
  }
}
