package dev.capability.kernel.core.internal.policy;

import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How GNU find (findutils 4.9) reads its command line, for rules in find syntax: which words are
 * leading options, where the expression begins, and how many arguments each primary takes. A
 * primary the table does not know cannot be listed, since its arguments could not be told from
 * the expression around them.
 */
final class FindPrimaries {
  private FindPrimaries() {}

  private static final Set<String> LEADING_WITHOUT_ARGUMENT = Set.of("-H", "-L", "-P");
  private static final Pattern OPTIMISATION_LEVEL = Pattern.compile("-O[0-9]+");
  private static final String DEBUG = "-D";

  private static final Set<String> NO_ARGUMENT = Set.of(
      "-not", "-a", "-and", "-o", "-or",
      "-d", "-depth", "-follow", "-help", "--help", "-version", "--version", "-ignore_readdir_race", "-noignore_readdir_race",
      "-mount", "-xdev", "-noleaf", "-warn", "-nowarn", "-daystart",
      "-empty", "-executable", "-false", "-true", "-nogroup", "-nouser", "-readable", "-writable",
      "-delete", "-ls", "-print", "-print0", "-prune", "-quit");

  private static final Set<String> ONE_ARGUMENT = Set.of(
      "-maxdepth", "-mindepth", "-regextype", "-files0-from",
      "-amin", "-anewer", "-atime", "-cmin", "-cnewer", "-context", "-ctime", "-fstype", "-gid", "-group", "-ilname", "-iname",
      "-inum", "-ipath", "-iregex", "-iwholename", "-links", "-lname", "-mmin", "-mtime", "-name", "-newer", "-path", "-perm",
      "-regex", "-samefile", "-size", "-type", "-uid", "-used", "-user", "-wholename", "-xtype",
      "-fls", "-fprint", "-fprint0", "-printf");

  private static final Pattern NEWER_XY = Pattern.compile("-newer[aBcm][aBcmt]");

  /** Primaries whose arguments run up to {@code ;} or {@code +}, or that take two: no value rule can describe them. */
  private static final Set<String> UNTYPABLE = Set.of("-exec", "-execdir", "-ok", "-okdir", "-fprintf");

  /** Whether find reads {@code arg}, before the starting points, as a leading option ({@code -O} with anything after it included). */
  static boolean isLeadingOption(String arg) {
    return LEADING_WITHOUT_ARGUMENT.contains(arg) || arg.equals(DEBUG) || arg.startsWith("-O");
  }

  /** Whether {@code arg}, where a starting point could stand, begins the expression instead. */
  static boolean startsExpression(String arg) {
    return arg.startsWith("-") && arg.length() > 1 || arg.equals("(") || arg.equals("!");
  }

  /** Whether {@code arg} is an operator of the expression that takes no argument. */
  static boolean isOperator(String arg) {
    return arg.equals("(") || arg.equals(")") || arg.equals("!") || arg.equals(",");
  }

  /**
   * Why a rule in find syntax may not list {@code name} as declared, or empty when find reads it
   * so: a leading option or a primary, with a value exactly when find reads one argument for it.
   */
  static Optional<String> declarationProblem(String name, boolean takesValue) {
    if (UNTYPABLE.contains(name)) {
      return Optional.of("find reads " + name + (name.equals("-fprintf") ? " with two arguments" : " with a command up to ; or +")
          + ", which no value rule describes; a rule in find syntax cannot allow it");
    }
    boolean oneArgument = name.equals(DEBUG) || ONE_ARGUMENT.contains(name) || NEWER_XY.matcher(name).matches();
    boolean noArgument =
        LEADING_WITHOUT_ARGUMENT.contains(name) || OPTIMISATION_LEVEL.matcher(name).matches() || NO_ARGUMENT.contains(name);
    if (!oneArgument && !noArgument) {
      return Optional.of(Printable.quote(name) + " is not a leading option or primary of GNU find (findutils 4.9)");
    }
    if (oneArgument && !takesValue) {
      return Optional.of("find reads one argument after " + name + "; give it a value rule");
    }
    if (noArgument && takesValue) {
      return Optional.of("find reads no argument after " + name + "; it takes no value");
    }
    return Optional.empty();
  }
}
