package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import picocli.CommandLine;

/**
 * {@link ShortCommandLine} reads {@code parse} and {@code check} as picocli does: for command
 * lines made of the words these commands take, and of words they do not (help, unknown options,
 * repeated options, values that look like options, argument files, arguments before {@code --}),
 * the CLI gives the same exit code, stdout and stderr with the short reader as with picocli
 * reading every line, and a line the short reader takes gives the command the same values as
 * picocli's reading does. The coverage check makes sure the short reader did take a good share of them.
 */
class ShortCommandLineTest {
  private static Path home;
  private static Path policy;
  private static Path repository;
  private static Path contract;
  private static Path tool;
  private static Map<String, String> environment;

  @BeforeContainer
  static void fixtures() throws Exception {
    home = Files.createTempDirectory("short-command-line", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    tool = home.resolve("tool");
    Files.writeString(tool, "#!/bin/sh\nexit 0\n");
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    policy = home.resolve("policy.json");
    Files.writeString(policy, """
        {"version": 1, "network": "none", "environment": {"request": ["GREETING"]},
         "executables": {"tool": {"path": "%s", "exact": [["status"]]}}}
        """.formatted(tool.toRealPath()));
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));
    contract = home.resolve("contract.json");
    Files.writeString(contract, "{\"version\": 1, \"executables\": {\"tool\": {\"exact\": [[\"status\"]]}}}");
    repository = Files.createDirectory(home.resolve("repository"));
    git("init", "-q", repository.toString());
    environment = Map.of("PATH", System.getenv("PATH"), "HOME", home.toString(),
        "XDG_CACHE_HOME", home.resolve("cache").toString(), "XDG_CONFIG_HOME", home.resolve("config").toString());
    // Fills the probe cache, so that neither reading below probes a backend and says so on stderr.
    run(false, "", "check", "--policy", policy.toString(), "--", tool.toString(), "status");
  }

  @AfterContainer
  static void removeFixtures() throws IOException {
    try (Stream<Path> files = Files.walk(home)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
  }

  private static void git(String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of("git"));
    argv.addAll(List.of(args));
    Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(1, TimeUnit.MINUTES)).isTrue();
    assertThat(process.exitValue()).as(out).isZero();
  }

  private record Outcome(int exitCode, String out, String err) {}

  private static Outcome run(boolean picocliOnly, String stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CapabilityCli cli = new CapabilityCli(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), environment, Set.of());
    int code = picocliOnly ? cli.runWithPicocli(args) : cli.run(args);
    return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static boolean taken(String... args) {
    Console console = new Console(new ByteArrayInputStream(new byte[0]), System.out, System.err, environment);
    return ShortCommandLine.read(console, args).isPresent();
  }

  @Property(tries = 150)
  void parseReadsAsPicocliDoes(@ForAll("parseLines") List<String> words, @ForAll("stdin") String stdin) {
    String[] args = withSubcommand("parse", words);

    assertSameAsPicocli(stdin, args);
  }

  @Property(tries = 120)
  void checkReadsAsPicocliDoes(@ForAll("checkLines") List<String> words, @ForAll("stdin") String stdin) {
    String[] args = withSubcommand("check", words);

    assertSameAsPicocli(stdin, args);
  }

  private static void assertSameAsPicocli(String stdin, String[] args) {
    boolean taken = taken(args);
    if (taken) {
      assertThat(givenByShortReader(args)).as("%s", List.of(args)).isEqualTo(givenByPicocli(args));
    }
    Outcome picocli = run(true, stdin, args);
    Outcome shortReader = run(false, stdin, args);

    assertThat(shortReader).as("%s", List.of(args)).isEqualTo(picocli);
    Statistics.label("reader").collect(taken ? "short" : "picocli");
    Statistics.label("reader").coverage(coverage -> {
      coverage.check("short").percentage((Double share) -> share >= 20);
      coverage.check("picocli").percentage((Double share) -> share >= 20);
    });
  }

  /** What picocli gives the command {@code args} name, and the console's global flags. */
  private static String givenByPicocli(String... args) {
    CapabilityCli cli = new CapabilityCli(new ByteArrayInputStream(new byte[0]), System.out, System.err, environment, Set.of());
    CommandLine.ParseResult parsed = cli.commandLine(CapabilityCli.named(args)).parseArgs(args);
    return given(parsed.subcommand().commandSpec().userObject(), field(cli, "console"));
  }

  /** What {@link ShortCommandLine} gives the command {@code args} name, and the console's global flags. */
  private static String givenByShortReader(String... args) {
    Console console = new Console(new ByteArrayInputStream(new byte[0]), System.out, System.err, environment);
    return given(ShortCommandLine.read(console, args).orElseThrow().command(), console);
  }

  private static String given(Object command, Object console) {
    String flags = "quiet=" + field(console, "quiet") + " raw=" + field(console, "raw");
    if (command instanceof ParseCommand parse) {
      return "parse json=" + parse.json + " command=" + parse.command + " " + flags;
    }
    CheckCommand check = (CheckCommand) command;
    KernelOptions o = check.options;
    return "check json=" + check.json + " policy=" + o.policy + " repo=" + o.repository + " noLedger=" + o.noLedger
        + " contract=" + o.contract + " phase=" + o.phase + " correction=" + o.correction + " env=" + check.environment.variables
        + " argv=" + check.argv + " " + flags;
  }

  private static Object field(Object owner, String name) {
    try {
      Field field = owner.getClass().getDeclaredField(name);
      field.setAccessible(true);
      return field.get(owner);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private static String[] withSubcommand(String subcommand, List<String> words) {
    List<String> args = new ArrayList<>(List.of(subcommand));
    args.addAll(words);
    return args.toArray(String[]::new);
  }

  @Provide
  Arbitrary<String> stdin() {
    return Arbitraries.of("", "tool status", "ls -l | wc", "a 'b c'");
  }

  @Provide
  Arbitrary<List<String>> parseLines() {
    Arbitrary<String> word = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, Arbitraries.of("ls -l", "a 'b c' \"d\"", "echo $(id)", "x | y", "", "a=b", "git status")),
        net.jqwik.api.Tuple.of(6, Arbitraries.of("--json", "-q", "--quiet", "--raw", "--")),
        net.jqwik.api.Tuple.of(1, Arbitraries.of("--help", "-h", "-x", "--json=true", "@args", "-", "check", "--no-ledger")));
    return word.list().ofMaxSize(4);
  }

  @Provide
  Arbitrary<List<String>> checkLines() {
    Arbitrary<List<String>> option = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(8, Arbitraries.of(List.of("--policy", policy.toString()), List.of("--policy=" + policy))),
        net.jqwik.api.Tuple.of(4, Arbitraries.of(List.of("--repo", repository.toString()), List.of("--no-ledger"), List.of("--json"),
            List.of("-q"), List.of("--raw"), List.of("--env", "GREETING=hi"), List.of("--env=GREETING=hello"), List.of("--env", "OTHER=x"),
            List.of("--contract", contract.toString()), List.of("--phase", home.resolve("missing.json").toString()))),
        net.jqwik.api.Tuple.of(1, Arbitraries.of(List.of("--env", "NOEQUALS"), List.of("--policy"), List.of("--help"), List.of("-x"),
            List.of("--repo", "--json"), List.of("@args"), List.of("status"), List.of("--correction="))));
    Arbitrary<List<String>> command = Arbitraries.of(List.of(), List.of("--"), List.of("--", tool.toString(), "status"),
        List.of("--", tool.toString(), "other"), List.of("--", "ls", "--json"), List.of("--", tool.toString(), "@x"));
    return option.list().ofMaxSize(5).flatMap(options -> command.map(tail -> {
      List<String> words = new ArrayList<>();
      options.forEach(words::addAll);
      words.addAll(tail);
      return words;
    }));
  }

  @Example
  void takesTheShapesAHookCallsWith() {
    assertThat(taken("parse", "ls -l")).isTrue();
    assertThat(taken("parse", "--json", "--", "-x")).isTrue();
    assertThat(taken("check", "--policy", policy.toString(), "--repo", repository.toString(), "--env", "GREETING=hi", "--", "tool", "status"))
        .isTrue();
    assertThat(taken("check", "--json", "--policy=" + policy)).isTrue();
  }

  @Example
  void leavesEverythingElseToPicocli() {
    assertThat(taken("parse", "--help")).isFalse();
    assertThat(taken("parse", "a", "b")).isFalse();
    assertThat(taken("-q", "parse", "ls")).isFalse();
    assertThat(taken("check", "--policy", "p", "git", "status")).as("argv before --").isFalse();
    assertThat(taken("check", "--policy", "p", "--policy", "q", "--", "git")).as("an option twice").isFalse();
    assertThat(taken("check", "--policy", "--", "git")).as("a value that looks like an option").isFalse();
    assertThat(taken("check", "--env", "NOEQUALS", "--", "git")).isFalse();
    assertThat(taken("check", "--", "git", "@file")).as("an argument file").isFalse();
    assertThat(taken("exec", "--", "git")).isFalse();
  }
}
