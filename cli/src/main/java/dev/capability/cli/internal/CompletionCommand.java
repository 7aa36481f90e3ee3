package dev.capability.cli.internal;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code capability completion bash|zsh}: the shell completion script picocli generates from the command tree. */
@Command(
    name = "completion",
    description = {
        "Print a completion script for bash or zsh, generated from this command tree.",
        "bash: source <(capability completion bash)",
        "zsh:  autoload -U +X compinit && compinit; autoload -U +X bashcompinit && bashcompinit; source <(capability completion zsh)"})
final class CompletionCommand implements Callable<Integer> {
  private final Console console;

  @Spec CommandSpec spec;

  @Parameters(paramLabel = "SHELL", description = "bash or zsh (zsh runs the same script through bashcompinit).")
  String shell;

  CompletionCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    if (!shell.equals("bash") && !shell.equals("zsh")) {
      console.err().println("capability: completion supports bash and zsh, not '" + shell + "'");
      return ExitCodes.USAGE;
    }
    console.out().print(AutoComplete.bash(spec.root().name(), spec.root().commandLine()));
    console.out().flush();
    return ExitCodes.OK;
  }
}
