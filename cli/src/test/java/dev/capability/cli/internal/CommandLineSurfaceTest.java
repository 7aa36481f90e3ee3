package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** What users of any CLI expect: usage without arguments, help everywhere, a version, completion. */
class CommandLineSurfaceTest {
  @TempDir Path tmp;

  @Test
  void withoutArgumentsTheUsageGoesToStderrAsAUsageError() {
    CliRunner.Outcome outcome = CliRunner.run();

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(outcome.out()).isEmpty();
    assertThat(outcome.err()).contains("a subcommand is required").contains("Usage: capability").contains("exec").contains("ledger");
  }

  @Test
  void everyCommandAndSubcommandPicocliBuildsTakesHelpAndDashH() {
    List<List<String>> paths = commandPaths();
    assertThat(paths).as("the walk reaches nested subcommands").contains(List.of("ledger", "export"), List.of("policy", "init"));

    for (List<String> path : paths) {
      for (String flag : List.of("--help", "-h")) {
        List<String> args = new ArrayList<>(path);
        args.add(flag);
        CliRunner.Outcome outcome = CliRunner.run(args.toArray(String[]::new));

        assertThat(outcome.exitCode()).as("capability %s: %s", String.join(" ", args), outcome.err()).isZero();
        assertThat(outcome.out()).as("capability %s", String.join(" ", args))
            .startsWith("Usage: capability" + (path.isEmpty() ? "" : " " + String.join(" ", path)));
        assertThat(outcome.err()).isEmpty();
      }
    }
  }

  @Test
  void helpNamesAnyCommandAndRefusesAnUnknownOne() {
    CliRunner.Outcome nested = CliRunner.run("help", "ledger", "list");
    CliRunner.Outcome top = CliRunner.run("help");
    CliRunner.Outcome unknown = CliRunner.run("help", "ledger", "rewrite");

    assertThat(nested.exitCode()).isZero();
    assertThat(nested.out()).startsWith("Usage: capability ledger list").contains("--since");
    assertThat(top.exitCode()).isZero();
    assertThat(top.out()).startsWith("Usage: capability");
    assertThat(unknown.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(unknown.err()).contains("no command 'ledger rewrite'").contains("list");
  }

  @Test
  void theLedgerHintToRunHelpWorks() {
    CliRunner.Outcome bare = CliRunner.run("ledger");

    assertThat(bare.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(bare.err()).contains("capability ledger --help");
    assertThat(CliRunner.run("ledger", "--help").exitCode()).isZero();
  }

  @Test
  void versionWorksAtTheTop() {
    CliRunner.Outcome version = CliRunner.run("--version");
    CliRunner.Outcome shortVersion = CliRunner.run("-V");

    assertThat(version.exitCode()).isZero();
    assertThat(version.out()).matches("capability \\S+\\n");
    assertThat(shortVersion.out()).isEqualTo(version.out());
  }

  @Test
  void theBashCompletionScriptNamesEveryCommandAndPassesBashSyntaxCheck() throws Exception {
    CliRunner.Outcome outcome = CliRunner.run("completion", "bash");

    assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    for (List<String> path : commandPaths()) {
      if (!path.isEmpty()) {
        assertThat(outcome.out()).as("the script completes %s", path).contains(path.get(path.size() - 1));
      }
    }
    assertThat(outcome.out()).contains("complete -F").contains("capability");
    assertBashAccepts(outcome.out());
    assertThat(CliRunner.run("completion", "zsh").out()).as("zsh loads the same script through bashcompinit").isEqualTo(outcome.out());
  }

  @Test
  void completionRefusesAnotherShell() {
    CliRunner.Outcome outcome = CliRunner.run("completion", "fish");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(outcome.err()).contains("bash and zsh");
  }

  @Test
  void quietIsAcceptedBeforeAndAfterTheCommand() {
    assertThat(CliRunner.run("--quiet", "parse", "ls").exitCode()).isZero();
    assertThat(CliRunner.run("parse", "-q", "ls").exitCode()).isZero();
  }

  /** Every command path picocli builds for the CLI, from the root (the empty path) down. */
  private static List<List<String>> commandPaths() {
    CommandLine root = new CapabilityCli(
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            Map.of())
        .commandLine();
    List<List<String>> paths = new ArrayList<>();
    walk(root, new ArrayList<>(), paths);
    return paths;
  }

  private static void walk(CommandLine command, List<String> path, List<List<String>> paths) {
    paths.add(List.copyOf(path));
    command.getSubcommands().forEach((name, sub) -> {
      List<String> deeper = new ArrayList<>(path);
      deeper.add(name);
      walk(sub, deeper, paths);
    });
  }

  /** Syntax-checks the script with {@code bash -n}: bash reads it and runs nothing. */
  private void assertBashAccepts(String script) throws IOException, InterruptedException {
    Path bash = Path.of("/bin/bash");
    Assumptions.assumeTrue(Files.isExecutable(bash), "no /bin/bash to syntax-check the completion script with");
    Path file = Files.writeString(tmp.resolve("capability-completion.bash"), script);
    Process process = new ProcessBuilder(bash.toString(), "-n", file.toString()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
  }
}
