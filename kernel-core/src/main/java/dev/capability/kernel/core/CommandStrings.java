package dev.capability.kernel.core;

import dev.capability.kernel.core.internal.parse.CommandParser;
import java.util.List;

/**
 * The kernel's shell-free splitting of command strings, for hosts and tools that want to show
 * what a string would become before executing it. See {@code docs/parser.md}.
 */
public final class CommandStrings {
  private CommandStrings() {}

  /**
   * Splits {@code command} with POSIX word rules and no expansion of any kind.
   *
   * @throws dev.capability.kernel.api.ShellSyntaxException naming the refused construct and its offset
   */
  public static List<String> split(String command) {
    return CommandParser.split(command);
  }
}
