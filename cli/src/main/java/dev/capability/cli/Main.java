package dev.capability.cli;

import dev.capability.cli.internal.CapabilityCli;

/** Entry point of the {@code capability} command. The only place that calls {@link System#exit}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    int code = new CapabilityCli(System.in, System.out, System.err, System.getenv()).run(args);
    System.out.flush();
    System.err.flush();
    System.exit(code);
  }
}
