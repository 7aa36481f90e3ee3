package dev.capability.cli.internal;

import dev.capability.capability.runtime.support.UrlCredentials;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/** The {@code capability} command and its subcommands, wired to one {@link Console}. */
@Command(
    name = "capability",
    versionProvider = VersionProvider.class,
    description = "Run untrusted commands under operator-granted authority, and prove what ran.")
public final class CapabilityCli implements Callable<Integer> {
  /**
   * The subcommands' names, in the order the usage lists them. Only the one a command line names
   * is built (picocli reads every built command's fields and methods, which loads the classes they
   * name), so {@code parse} loads no JSON, Git or Docker library; without one, or for {@code help}
   * and {@code completion}, which show the whole tree, all are.
   */
  private static final List<String> SUBCOMMANDS = List.of("parse", "check", "exec", "doctor", "ledger", "assumption", "inspect",
      "plan", "run", "image", "acquire", "search", "import-openapi", "policy", "contract", "work-plan", "phase", "playbook", "evaluate", "mcp",
      "completion", "help");

  /** The class of subcommand {@code name}; a class is loaded only when its name is asked for. */
  private static Class<?> subcommand(String name) {
    return switch (name) {
      case "parse" -> ParseCommand.class;
      case "check" -> CheckCommand.class;
      case "exec" -> ExecCommand.class;
      case "doctor" -> DoctorCommand.class;
      case "ledger" -> LedgerCommand.class;
      case "assumption" -> AssumptionCommand.class;
      case "inspect" -> InspectCommand.class;
      case "plan" -> PlanCommand.class;
      case "run" -> RunCommand.class;
      case "image" -> ImageCommand.class;
      case "acquire" -> AcquireCommand.class;
      case "search" -> SearchCommand.class;
      case "import-openapi" -> ImportOpenApiCommand.class;
      case "policy" -> PolicyCommand.class;
      case "contract" -> ContractCommand.class;
      case "work-plan" -> WorkPlanCommand.class;
      case "phase" -> PhaseCommand.class;
      case "playbook" -> PlaybookCommand.class;
      case "evaluate" -> EvaluateCommand.class;
      case "mcp" -> McpCommand.class;
      case "completion" -> CompletionCommand.class;
      case "help" -> HelpCommand.class;
      default -> throw new IllegalArgumentException("no subcommand " + name);
    };
  }

  private final Console console;

  @Spec CommandSpec spec;

  // Inherited, so every command and subcommand, present and future, takes -h/--help, --quiet and --raw.
  @Option(names = {"-h", "--help"}, usageHelp = true, scope = ScopeType.INHERIT, description = "Show this help and exit.")
  boolean help;

  @Option(names = {"-V", "--version"}, versionHelp = true, description = "Print the version and exit.")
  boolean version;

  @Option(names = {"-q", "--quiet"}, scope = ScopeType.INHERIT, description = "Print no progress lines on stderr.")
  void quiet(boolean quiet) {
    console.quiet(quiet);
  }

  @Option(names = "--raw", scope = ScopeType.INHERIT,
      description = "Pass output bytes to the terminal as they are; by default control characters are shown, not obeyed.")
  void raw(boolean raw) {
    console.raw(raw);
  }

  public CapabilityCli(InputStream in, PrintStream out, PrintStream err, Map<String, String> environment) {
    this(in, out, err, environment, Set.of());
  }

  /**
   * A CLI whose command-line arguments in {@code argumentsNotUtf8} were not valid UTF-8 where the
   * operating system passed them ({@link ProcessArguments}); a command given by one is refused.
   */
  public CapabilityCli(
      InputStream in, PrintStream out, PrintStream err, Map<String, String> environment, Set<String> argumentsNotUtf8) {
    this.console = new Console(in, out, err, environment, argumentsNotUtf8);
  }

  /** Runs the command line and returns its exit code; never exits the JVM. */
  public int run(String... args) {
    try {
      Optional<ShortCommandLine.Prepared> prepared = ShortCommandLine.read(console, args);
      return prepared.isPresent() ? prepared.get().execute(console) : commandLine(named(args)).execute(args);
    } finally {
      console.finish();
    }
  }

  /**
   * {@link #run}, with picocli reading every command line, those {@link ShortCommandLine} takes
   * included: the reading its test holds it equal to.
   */
  int runWithPicocli(String... args) {
    try {
      return commandLine(named(args)).execute(args);
    } finally {
      console.finish();
    }
  }

  /** The whole command tree, as picocli builds it, writing to this CLI's console. */
  CommandLine commandLine() {
    return commandLine(Set.copyOf(SUBCOMMANDS));
  }

  /**
   * The subcommands a command line needs: the one it names (the first argument that is not one of
   * the root's flags, which take no value), or all of them when it names none it knows, or names
   * {@code help} or {@code completion}.
   */
  static Set<String> named(String... args) {
    for (String arg : args) {
      if (arg.equals("--")) {
        break;
      }
      if (!arg.startsWith("-")) {
        return SUBCOMMANDS.contains(arg) && !arg.equals("help") && !arg.equals("completion") ? Set.of(arg) : Set.copyOf(SUBCOMMANDS);
      }
    }
    return Set.copyOf(SUBCOMMANDS);
  }

  /** The command tree with only the subcommands {@code names}, writing to this CLI's console. */
  CommandLine commandLine(Set<String> names) {
    ConsoleFactory factory = new ConsoleFactory(console);
    CommandLine commandLine = new CommandLine(this, factory);
    for (String name : SUBCOMMANDS) {
      if (names.contains(name)) {
        commandLine.addSubcommand(name, new CommandLine(subcommand(name), factory));
      }
    }
    commandLine.setOut(new PrintWriter(console.out(), true, StandardCharsets.UTF_8));
    commandLine.setErr(new PrintWriter(console.err(), true, StandardCharsets.UTF_8));
    // Set after the subcommands exist, so that it reaches them all; exec then keeps its own table.
    commandLine.setExitCodeExceptionMapper(ExitCodes.COMMANDS);
    if (commandLine.getSubcommands().containsKey("exec")) {
      commandLine.getSubcommands().get("exec").setExitCodeExceptionMapper(ExitCodes.EXEC);
    }
    commandLine.setExecutionExceptionHandler(new ErrorReport(console));
    commandLine.setParameterExceptionHandler(new WithoutUrlCredentials(commandLine.getParameterExceptionHandler()));
    return commandLine;
  }

  /**
   * Picocli's own report of a command line it cannot parse, which repeats the offending argument,
   * with every URL in the message shown without credentials; otherwise unchanged. A class, not a
   * lambda: making a lambda's class links picocli's interface (class-file version 49) when the
   * launchers write the CLI's class data archive, and the JVM then leaves the interface and every
   * class implementing it out of the archive (docs/cli.md, "Start-up").
   */
  private record WithoutUrlCredentials(CommandLine.IParameterExceptionHandler report) implements CommandLine.IParameterExceptionHandler {
    @Override
    public int handleParseException(CommandLine.ParameterException e, String[] args) throws Exception {
      String message = e.getMessage();
      if (message == null || message.equals(UrlCredentials.redactedIn(message))) {
        return report.handleParseException(e, args);
      }
      return report.handleParseException(
          new CommandLine.ParameterException(e.getCommandLine(), UrlCredentials.redactedIn(message), e), args);
    }
  }

  /** Without a subcommand: the usage, on stderr, as a usage error. */
  @Override
  public Integer call() {
    console.err().println("capability: a subcommand is required");
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE;
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
