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
 * Refusals no operator policy can lift: malformed argv, commands that do nothing (an untrusted
 * party would run them to fake a passing check), and Windows batch scripts (which
 * {@code CreateProcess} hands to {@code cmd.exe}, re-parsing the arguments as a command line).
 */
final class BuiltinChecks {
  private BuiltinChecks() {}

  static final String RULE_ARGV = "builtin.argv";
  static final String RULE_NOOP = "builtin.noop";
  static final String RULE_WINDOWS_SHIM = "builtin.windows-shim";

  /** Programs that do nothing whatever their arguments. */
  private static final Set<String> NOOPS = Set.of("true", ":", "false", "exit", "echo", "test", "[");

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
    String base = windowsBaseName(program);
    if (base.endsWith(".cmd") || base.endsWith(".bat")) {
      return Optional.of(Decision.deny(WINDOWS_SHIM, LAYER_BUILTIN, RULE_WINDOWS_SHIM, 0,
          Printable.quote(program) + " is a Windows batch script, which cmd.exe would re-parse"));
    }
    String name = base.endsWith(".exe") ? base.substring(0, base.length() - 4) : base;
    if (NOOPS.contains(name) || name.equals("sleep") && isZeroSleep(argv)) {
      return Optional.of(Decision.deny(NOOP_COMMAND, LAYER_BUILTIN, RULE_NOOP, 0,
          Printable.argv(argv) + " does nothing; run a command that checks something"));
    }
    return Optional.empty();
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
