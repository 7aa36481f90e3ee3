package dev.capability.cli;

import dev.capability.cli.internal.CapabilityCli;
import dev.capability.cli.internal.ProcessArguments;

/** Entry point of the {@code capability} command. The only place that calls {@link System#exit}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    // Picocli's default factory, when first used, looks for Groovy's closure class unless this is
    // set. The CLI has no Groovy, and looking for a class that is nowhere has the class loader open
    // every jar on the class path (docs/cli.md, "Start-up").
    System.setProperty("picocli.disable.closures", "true");
    ProcessArguments arguments = ProcessArguments.ofThisProcess(args);
    int code = new CapabilityCli(System.in, System.out, System.err, System.getenv(), arguments.notUtf8())
        .run(arguments.arguments().toArray(String[]::new));
    System.out.flush();
    System.err.flush();
    System.exit(code);
  }
}
