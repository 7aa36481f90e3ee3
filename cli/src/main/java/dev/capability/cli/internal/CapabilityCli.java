package dev.capability.cli.internal;

import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code capability} command and its subcommands, wired to one {@link Console}. */
@Command(
    name = "capability",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Run untrusted commands under operator-granted authority, and prove what ran.",
    subcommands = {ParseCommand.class, CheckCommand.class, ExecCommand.class, DoctorCommand.class, LedgerCommand.class, InspectCommand.class, PlanCommand.class, RunCommand.class, ImageCommand.class, AcquireCommand.class, SearchCommand.class, ImportOpenApiCommand.class})
public final class CapabilityCli implements Runnable {
  /** An unexpected failure inside the CLI: a bug to report. */
  public static final int INTERNAL_ERROR = 70;

  private final Console console;

  public CapabilityCli(InputStream in, PrintStream out, PrintStream err, Map<String, String> environment) {
    this.console = new Console(in, out, err, environment);
  }

  /** Runs the command line and returns its exit code; never exits the JVM. */
  public int run(String... args) {
    CommandLine commandLine = new CommandLine(this, new ConsoleFactory(console));
    commandLine.setOut(new PrintWriter(console.out(), true, StandardCharsets.UTF_8));
    commandLine.setErr(new PrintWriter(console.err(), true, StandardCharsets.UTF_8));
    commandLine.setExecutionExceptionHandler((e, cl, parseResult) -> {
      console.err().println("capability: internal error: " + e);
      return INTERNAL_ERROR;
    });
    return commandLine.execute(args);
  }

  @Override
  public void run() {
    console.err().println("capability: a subcommand is required; see 'capability --help'");
    throw new CommandLine.ParameterException(new CommandLine(this), "missing subcommand");
  }

  /** Creates commands with the console injected. */
  private record ConsoleFactory(Console console) implements CommandLine.IFactory {
    @Override
    public <K> K create(Class<K> type) throws Exception {
      try {
        return type.getDeclaredConstructor(Console.class).newInstance(console);
      } catch (NoSuchMethodException e) {
        return CommandLine.defaultFactory().create(type);
      }
    }
  }
}
