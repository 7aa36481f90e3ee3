package dev.capability.workflow.internal;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.ShellSyntaxException;
import dev.capability.kernel.core.CommandStrings;
import dev.capability.workflow.WorkflowCodes;
import dev.capability.workflow.WorkflowException;
import java.util.List;

/**
 * A plan or contract command, split by the kernel's shell-free parser.
 *
 * @param pointer where the command is, in its document
 * @param command the command as written
 * @param argv what the parser made of it
 */
record ParsedCommand(String pointer, String command, List<String> argv) {
  ParsedCommand {
    argv = List.copyOf(argv);
  }

  /**
   * Splits {@code command}.
   *
   * @throws WorkflowException {@code PLAN_COMMAND_SHELL_SYNTAX} with the parser's code, construct and offset
   */
  static ParsedCommand parse(String pointer, String command) {
    try {
      return new ParsedCommand(pointer, command, CommandStrings.split(command));
    } catch (ShellSyntaxException e) {
      throw new WorkflowException(WorkflowCodes.PLAN_COMMAND_SHELL_SYNTAX, "the command at " + pointer + " is refused by the shell-free parser ("
          + e.code() + ", " + e.construct() + " at offset " + e.offset() + "): " + e.getMessage(), e);
    } catch (CapabilityException e) {
      throw new WorkflowException(WorkflowCodes.PLAN_COMMAND_SHELL_SYNTAX, "the command at " + pointer + " is refused by the shell-free parser ("
          + e.code() + "): " + e.getMessage(), e);
    }
  }
}
