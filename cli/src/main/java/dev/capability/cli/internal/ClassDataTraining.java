package dev.capability.cli.internal;

import dev.capability.cli.Main;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The training run for the CLI's class data sharing archives (docs/cli.md, "Start-up"). For a
 * short command named by its one argument ({@code parse}, {@code check}, {@code help},
 * {@code completion} or {@code policy}) the launchers run this class in a JVM of its own, with
 * {@code -XX:DumpLoadedClassList}, after the user's command has ended, and then write the classes
 * it loaded into a static archive ({@code -Xshare:dump}), so that the archive holds the classes
 * that command loads, from {@link Main} on.
 *
 * <p>It runs fixed command lines only, never the user's (which must not run twice). Nothing it
 * runs writes a file, probes a backend or launches anything: {@code check} is given a command the
 * shipped {@code readonly-dev} template refuses, and a refusal needs no backend. The commands read
 * no stdin, their output is discarded, and their environment names only a private temporary
 * directory, which holds the template as the operator policy; no file of the user's (policy,
 * probe cache, ledger) is read or written.
 */
public final class ClassDataTraining {
  private ClassDataTraining() {}

  public static void main(String[] args) throws IOException, ClassNotFoundException {
    // The user's command starts in Main, which reads its arguments through ProcessArguments: both
    // are loaded here as well, so that the class list names them.
    Class.forName(Main.class.getName(), false, ClassDataTraining.class.getClassLoader());
    ProcessArguments arguments = ProcessArguments.ofThisProcess(args);
    if (arguments.arguments().size() != 1) {
      throw new IllegalArgumentException("usage: ClassDataTraining parse|check|help|completion|policy");
    }
    // Mode 700, as the policy loader requires of the policy's directories.
    Path home = Files.createTempDirectory("capability-cds-training");
    Path policy = home.resolve("capability").resolve("policy.json");
    try {
      Files.createDirectory(policy.getParent());
      Files.writeString(policy, PolicyCommand.template("readonly-dev"));
      for (List<String> commandLine : commandLines(arguments.arguments().get(0))) {
        run(home, commandLine);
      }
    } finally {
      Files.deleteIfExists(policy);
      Files.deleteIfExists(policy.getParent());
      Files.delete(home);
    }
  }

  /** The command lines that train the archive of {@code command}. */
  static List<List<String>> commandLines(String command) {
    return switch (command) {
      // Not --json: the JSON writer's classes would triple the archive (more to hash on every call,
      // and 5 MiB more resident) for a few milliseconds less; they load from the jars when needed.
      case "parse" -> List.of(List.of("parse", "ls -l"));
      case "check" -> List.of(List.of("check", "--", "rm", "-rf", "/"), List.of("check", "--json", "--", "rm", "-rf", "/"));
      case "help" -> List.of(List.of("help"), List.of("help", "check"));
      case "completion" -> List.of(List.of("completion", "bash"));
      case "policy" -> List.of(List.of("policy", "path"), List.of("policy", "show"), List.of("policy", "show", "--json"));
      default -> throw new IllegalArgumentException("no training for '" + command + "'");
    };
  }

  /** Runs {@code commandLine} with {@code home} as its configuration directory; returns its exit code. */
  static int run(Path home, List<String> commandLine) {
    PrintStream discarded = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    Map<String, String> environment = Map.of("PATH", "/usr/local/bin:/usr/bin:/bin", "XDG_CONFIG_HOME", home.toString());
    return new CapabilityCli(InputStream.nullInputStream(), discarded, discarded, environment, Set.of())
        .run(commandLine.toArray(String[]::new));
  }
}
