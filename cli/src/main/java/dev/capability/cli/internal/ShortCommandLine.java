package dev.capability.cli.internal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code parse} and {@code check} in the plain shapes an agent's hook calls them with, read
 * without picocli. Picocli builds its model of a command by reflection, with its built-in type
 * converters, at every start; that costs a short command's process more CPU than the whole JVM
 * does (docs/BENCHMARKS.md, "CLI start-up with a static class data archive"). A command line is
 * taken here only when every argument is one this reader knows the meaning of, as picocli would
 * read it:
 *
 * <ul>
 *   <li>{@code parse}, its flags {@code --json}, {@code -q}/{@code --quiet}, {@code --raw}, each at
 *       most once, and at most one command string, before or after {@code --};
 *   <li>{@code check}, the same flags and {@code --no-ledger}, its options {@code --policy},
 *       {@code --repo}, {@code --contract}, {@code --phase}, {@code --correction} (each at most
 *       once) and {@code --env NAME=VALUE} (repeatable), as {@code --option VALUE} or
 *       {@code --option=VALUE}, and the command's argv only after {@code --}.
 * </ul>
 *
 * <p>Anything else is picocli's, so that help, usage errors and their wording stay picocli's own:
 * another subcommand or option, an option given twice, a value that is empty or begins with
 * {@code -}, an argument that begins with {@code @} (picocli reads such an argument as a file of
 * arguments), a root option before the subcommand. {@code ShortCommandLineTest} holds the two
 * readings equal.
 */
final class ShortCommandLine {
  private static final String END_OF_OPTIONS = "--";
  private static final Set<String> COMMON_FLAGS = Set.of("--json", "-q", "--quiet", "--raw");
  private static final Set<String> CHECK_FLAGS = Set.of("--json", "-q", "--quiet", "--raw", "--no-ledger");
  private static final Set<String> CHECK_OPTIONS = Set.of("--policy", "--repo", "--contract", "--phase", "--correction", "--env");

  /** A command read from its command line, ready to run; {@code json} says how its errors are reported. */
  record Prepared(Callable<Integer> command, boolean json) {
    /** Runs the command; an exception it raises is reported as picocli's handler would ({@link ErrorReport}). */
    int execute(Console console) {
      try {
        return command.call();
      } catch (Exception e) {
        return new ErrorReport(console).report(e, ExitCodes.forException(e), json);
      } catch (Error e) {
        return new ErrorReport(console).report(e, ExitCodes.INTERNAL_ERROR, json);
      }
    }
  }

  private ShortCommandLine() {}

  /**
   * The command {@code args} names, read here, with the root's {@code --quiet} and {@code --raw}
   * already applied to {@code console}; empty when the command line is picocli's to read.
   */
  static Optional<Prepared> read(Console console, String... args) {
    if (args.length == 0 || hasArgumentFile(args)) {
      return Optional.empty();
    }
    Optional<Words> words = switch (args[0]) {
      case "parse" -> Words.read(args, COMMON_FLAGS, Set.of()).filter(w -> w.positionals().size() <= 1);
      case "check" -> Words.read(args, CHECK_FLAGS, CHECK_OPTIONS).filter(w -> w.positionalsBeforeEnd() == 0 && w.environment() != null);
      default -> Optional.empty();
    };
    if (words.isEmpty()) {
      return Optional.empty();
    }
    Words w = words.get();
    console.quiet(w.flags().contains("--quiet"));
    console.raw(w.flags().contains("--raw"));
    boolean json = w.flags().contains("--json");
    return Optional.of(args[0].equals("parse") ? parse(console, w, json) : check(console, w, json));
  }

  private static boolean hasArgumentFile(String[] args) {
    for (String arg : args) {
      if (arg.startsWith("@")) {
        return true;
      }
    }
    return false;
  }

  private static Prepared parse(Console console, Words words, boolean json) {
    ParseCommand command = new ParseCommand(console);
    command.json = json;
    command.command = words.positionals().isEmpty() ? null : words.positionals().get(0);
    return new Prepared(command, json);
  }

  private static Prepared check(Console console, Words words, boolean json) {
    CheckCommand command = new CheckCommand(console);
    command.json = json;
    command.options = new KernelOptions();
    command.options.policy = words.path("--policy");
    command.options.repository = words.path("--repo");
    command.options.noLedger = words.flags().contains("--no-ledger");
    command.options.contract = words.path("--contract");
    command.options.phase = words.path("--phase");
    command.options.correction = words.path("--correction");
    command.environment = new RequestEnvironmentOption();
    command.environment.variables.putAll(words.environment());
    // Picocli leaves the field unset when "--" ends the line.
    command.argv = words.positionals().isEmpty() ? null : words.positionals();
    return new Prepared(command, json);
  }

  /**
   * A subcommand's arguments, split into the flags given, the options' values, the {@code --env}
   * variables (null when one is not NAME=VALUE) and the positional arguments, of which {@code
   * positionalsBeforeEnd} came before {@code --}.
   */
  private record Words(Set<String> flags, Map<String, String> values, Map<String, String> environment, List<String> positionals,
      int positionalsBeforeEnd) {
    /**
     * {@code args} after the subcommand read with these flags and valued options; empty when an
     * argument is not one of them, repeats one that is not {@code --env}, or has a value this
     * reader does not take.
     */
    static Optional<Words> read(String[] args, Set<String> flagNames, Set<String> optionNames) {
      Set<String> flags = new HashSet<>();
      Map<String, String> values = new LinkedHashMap<>();
      Map<String, String> environment = new LinkedHashMap<>();
      boolean badVariable = false;
      List<String> positionals = new ArrayList<>();
      int before = -1;
      for (int i = 1; i < args.length; i++) {
        String arg = args[i];
        if (before >= 0) {
          positionals.add(arg);
          continue;
        }
        if (arg.equals(END_OF_OPTIONS)) {
          before = positionals.size();
          continue;
        }
        if (!arg.startsWith("-")) {
          positionals.add(arg);
          continue;
        }
        int equals = arg.indexOf('=');
        String name = equals < 0 ? arg : arg.substring(0, equals);
        if (flagNames.contains(arg)) {
          // -q and --quiet are one option, which picocli takes once.
          if (!flags.add(arg.equals("-q") ? "--quiet" : arg)) {
            return Optional.empty();
          }
          continue;
        }
        if (!optionNames.contains(name)) {
          return Optional.empty();
        }
        String value;
        if (equals >= 0) {
          value = arg.substring(equals + 1);
        } else if (i + 1 < args.length) {
          value = args[++i];
        } else {
          return Optional.empty();
        }
        if (value.isEmpty() || value.startsWith("-")) {
          return Optional.empty();
        }
        if (name.equals("--env")) {
          int split = value.indexOf('=');
          if (split <= 0) {
            badVariable = true;
          } else {
            environment.put(value.substring(0, split), value.substring(split + 1));
          }
        } else if (values.putIfAbsent(name, value) != null) {
          return Optional.empty();
        }
      }
      return Optional.of(new Words(Set.copyOf(flags), values, badVariable ? null : environment, List.copyOf(positionals),
          before < 0 ? positionals.size() : before));
    }

    Path path(String option) {
      String value = values.get(option);
      return value == null ? null : Path.of(value);
    }
  }
}
