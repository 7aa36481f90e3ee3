package dev.capability.cli.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Runs the CLI in this JVM with captured streams, the way {@code Main} runs it. */
final class CliRunner {
  record Outcome(int exitCode, String out, String err) {}

  private CliRunner() {}

  static Outcome run(Map<String, String> environment, String stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = new CapabilityCli(
            new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            environment)
        .run(args);
    return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** The CLI's command tree, as {@code run} builds it. */
  static picocli.CommandLine commandLine() {
    return new CapabilityCli(new ByteArrayInputStream(new byte[0]), System.out, System.err, Map.of()).commandLine();
  }

  static Outcome run(String... args) {
    return run(Map.of(), "", args);
  }
}
