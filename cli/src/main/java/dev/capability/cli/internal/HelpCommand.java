package dev.capability.cli.internal;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code capability help [COMMAND...]}: the usage of a command or nested subcommand, on stdout.
 * Picocli's own {@code HelpCommand} declares {@code -h} itself, which clashes with the inherited
 * {@code -h/--help} every command here takes.
 */
@Command(name = "help", description = "Show the usage of capability, or of COMMAND (e.g. 'capability help ledger list').")
final class HelpCommand implements Callable<Integer> {
  private final Console console;

  @Spec CommandSpec spec;

  @Parameters(arity = "0..*", paramLabel = "COMMAND", description = "A command and its subcommands.")
  List<String> path = List.of();

  HelpCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    CommandLine command = spec.root().commandLine();
    for (String name : path) {
      CommandLine sub = command.getSubcommands().get(name);
      if (sub == null) {
        console.err().println("capability: no command '" + String.join(" ", path) + "'; the commands of '"
            + command.getCommandSpec().qualifiedName() + "' are " + command.getSubcommands().keySet());
        return ExitCodes.USAGE;
      }
      command = sub;
    }
    command.usage(command.getOut());
    return ExitCodes.OK;
  }
}
