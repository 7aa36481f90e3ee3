package dev.capability.kernel.core.internal.policy;

import static dev.capability.kernel.api.policy.PolicyCodes.ARGV_INVALID;
import static dev.capability.kernel.api.policy.PolicyCodes.LAYER_BUILTIN;
import static dev.capability.kernel.api.policy.PolicyCodes.NOOP_COMMAND;
import static dev.capability.kernel.api.policy.PolicyCodes.WINDOWS_SHIM;

import dev.capability.kernel.api.Decision;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Refusals no operator policy can lift: malformed argv, exact no-ops (commands that do nothing
 * whatever happens, which an untrusted party would run to fake a passing check), and Windows batch
 * scripts (which {@code CreateProcess} hands to {@code cmd.exe}, re-parsing the arguments as a
 * command line).
 *
 * <p>An exact no-op is {@code true}, {@code :}, {@code false} or {@code exit} with any arguments,
 * and {@code sleep} whose every argument is a zero duration (or that has none). Commands that
 * report on something, such as {@code echo}, {@code printf}, {@code test} and {@code [}, are
 * ordinary commands here: the operator's policy decides whether they may run.
 */
final class BuiltinChecks {
  private BuiltinChecks() {}

  static final String RULE_ARGV = "builtin.argv";
  static final String RULE_NOOP = "builtin.noop";
  static final String RULE_WINDOWS_SHIM = "builtin.windows-shim";

  /** Programs that do nothing whatever their arguments and whatever the state of the machine. */
  private static final Set<String> NOOPS = Set.of("true", ":", "false", "exit");

  /** A duration of zero as sleep(1) reads it: 0, 00, 0.0, .0, 0s, 0m, ... */
  private static final Pattern ZERO_DURATION = Pattern.compile("(0+(\\.0*)?|\\.0+)[smhd]?");

  /** The built-in refusal of {@code argv}, or empty when the operator's policy decides. */
  static Optional<Decision> refusal(List<String> argv) {
    if (argv.isEmpty()) {
      return Optional.of(Decision.deny(ARGV_INVALID, LAYER_BUILTIN, RULE_ARGV, "argv is empty"));
    }
    for (int i = 0; i < argv.size(); i++) {
      int bad = Characters.firstUnencodable(argv.get(i));
      if (bad >= 0) {
        return Optional.of(Decision.deny(ARGV_INVALID, LAYER_BUILTIN, RULE_ARGV, i,
            "argv[" + i + "] " + Printable.quote(argv.get(i)) + " contains a NUL or a broken surrogate at index " + bad
                + ", which no process can receive"));
      }
    }
    String program = argv.get(0);
    if (program.isEmpty()) {
      return Optional.of(Decision.deny(ARGV_INVALID, LAYER_BUILTIN, RULE_ARGV, 0, "argv[0] is empty"));
    }
    Optional<Decision> refusedProgram = refusalOfProgram(argv);
    if (refusedProgram.isPresent()) {
      return refusedProgram;
    }
    if (programName(program).equals("sleep") && isZeroSleep(argv)) {
      return Optional.of(noop(argv));
    }
    return Optional.empty();
  }

  /**
   * The refusal of every argv whose argv[0] is {@code program}, whatever the arguments: a Windows
   * batch script or a program that does nothing. Empty when some arguments could pass.
   */
  static Optional<Decision> refusalOfEveryArgvOf(String program) {
    return refusalOfProgram(List.of(program));
  }

  private static Optional<Decision> refusalOfProgram(List<String> argv) {
    String program = argv.get(0);
    if (isWindowsShim(program)) {
      return Optional.of(Decision.deny(WINDOWS_SHIM, LAYER_BUILTIN, RULE_WINDOWS_SHIM, 0,
          Printable.quote(program) + " is a Windows batch script, which cmd.exe would re-parse"));
    }
    if (NOOPS.contains(programName(program))) {
      return Optional.of(noop(argv));
    }
    return Optional.empty();
  }

  private static Decision noop(List<String> argv) {
    return Decision.deny(NOOP_COMMAND, LAYER_BUILTIN, RULE_NOOP, 0,
        Printable.argv(argv) + " does nothing; run a command that checks something");
  }

  private static boolean isWindowsShim(String program) {
    String base = windowsBaseName(program);
    return base.endsWith(".cmd") || base.endsWith(".bat");
  }

  /** The base name as Windows would find it, without an {@code .exe} extension. */
  private static String programName(String program) {
    String base = windowsBaseName(program);
    return base.endsWith(".exe") ? base.substring(0, base.length() - 4) : base;
  }

  /**
   * The last path component, lower-cased, without the trailing dots and spaces that Windows
   * drops from file names ({@code x.cmd.} and {@code x.BAT  } name the same files as
   * {@code x.cmd} and {@code x.bat}).
   */
  private static String windowsBaseName(String program) {
    int slash = Math.max(program.lastIndexOf('/'), program.lastIndexOf('\\'));
    String base = program.substring(slash + 1);
    int end = base.length();
    while (end > 0 && (base.charAt(end - 1) == '.' || base.charAt(end - 1) == ' ')) {
      end--;
    }
    return base.substring(0, end).toLowerCase(Locale.ROOT);
  }

  private static boolean isZeroSleep(List<String> argv) {
    return argv.subList(1, argv.size()).stream().allMatch(arg -> ZERO_DURATION.matcher(arg).matches());
  }
}
