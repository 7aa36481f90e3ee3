package dev.capability.cli.internal;

import dev.capability.capability.runtime.support.UrlCredentials;
import dev.capability.kernel.api.CapabilityException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The one place an exception a command raised is reported and turned into an exit code: the
 * error as {@code {"error":{"code","message"}}} on stdout when the command was given
 * {@code --json}, else one {@code capability: CODE: message} line on stderr; the exit code from
 * the command's {@link CommandLine#getExitCodeExceptionMapper() exit code mapper} ({@link ExitCodes}).
 */
final class ErrorReport implements IExecutionExceptionHandler {
  private final Console console;

  ErrorReport(Console console) {
    this.console = console;
  }

  @Override
  public int handleExecutionException(Exception e, CommandLine command, ParseResult parseResult) {
    return report(e, command.getExitCodeExceptionMapper().getExitCode(e), json(command));
  }

  /** Reports {@code e}, which a command given {@code --json} or not raised, and returns {@code exit}. */
  int report(Throwable e, int exit, boolean json) {
    if (exit == ExitCodes.INTERNAL_ERROR) {
      console.err().println("capability: internal error: " + UrlCredentials.redactedIn(e.toString()));
    } else if (e instanceof CapabilityException capabilityException) {
      console.error(capabilityException, json);
    } else {
      // A value the command line let through but the command cannot take (IllegalArgumentException).
      console.error(new CapabilityException(CliCodes.USAGE, e.getMessage()), json);
    }
    return exit;
  }

  /** Whether the command that failed was given {@code --json}. */
  private static boolean json(CommandLine command) {
    OptionSpec json = command.getCommandSpec().findOption("--json");
    return json != null && Boolean.TRUE.equals(json.getValue());
  }
}
