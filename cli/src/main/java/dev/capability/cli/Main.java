package dev.capability.cli;

import dev.capability.cli.internal.CapabilityCli;
import dev.capability.cli.internal.ProcessArguments;

/** Entry point of the {@code capability} command. The only place that calls {@link System#exit}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    ProcessArguments arguments = ProcessArguments.ofThisProcess(args);
    int code = new CapabilityCli(System.in, System.out, System.err, System.getenv(), arguments.notUtf8())
        .run(arguments.arguments().toArray(String[]::new));
    System.out.flush();
    System.err.flush();
    System.exit(code);
  }
}
