package dev.capability.cli.internal;

import dev.capability.kernel.api.ShellSyntaxException;
import dev.capability.kernel.core.CommandStrings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code capability parse}: how the kernel splits a command string, or why it refuses it. */
@Command(name = "parse", description = "Split a command string into argv without a shell, or say why it is refused.")
final class ParseCommand implements Callable<Integer> {
  private final Console console;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Parameters(arity = "0..1", paramLabel = "COMMAND", description = "The command string; read from stdin, byte for byte, when absent.")
  String command;

  ParseCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    if (command != null) {
      console.requireUtf8Argument(command, "the command string");
    }
    String input = command != null ? command : console.readStdin();
    try {
      List<String> argv = CommandStrings.split(input);
      if (json) {
        console.json(Map.of("argv", argv));
      } else {
        argv.forEach(word -> console.out().println(Console.quote(word)));
      }
      return ExitCodes.OK;
    } catch (ShellSyntaxException e) {
      if (json) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", e.code());
        error.put("construct", e.construct());
        error.put("offset", e.offset());
        error.put("message", e.getMessage());
        console.json(Map.of("error", error));
      } else {
        console.err().println("capability: refused: " + e.getMessage() + " (" + e.construct() + " at offset " + e.offset() + ")");
      }
      return ExitCodes.DENIED;
    }
  }
}
