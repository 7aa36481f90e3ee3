package dev.capability.kernel.core.internal.policy;

import static dev.capability.kernel.api.policy.PolicyCodes.DOUBLE_DASH_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.FLAG_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.FLAG_VALUE_INVALID;
import static dev.capability.kernel.api.policy.PolicyCodes.KEY_VALUE_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.LAYER_OPERATOR;
import static dev.capability.kernel.api.policy.PolicyCodes.OPERAND_INVALID;
import static dev.capability.kernel.api.policy.PolicyCodes.OPERAND_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.SUBCOMMAND_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.TOO_FEW_OPERANDS;
import static dev.capability.kernel.api.policy.PolicyCodes.TOO_MANY_OPERANDS;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.DoubleDashMode;
import dev.capability.kernel.api.policy.FlagRule;
import dev.capability.kernel.api.policy.KeyValueMode;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.OptionSyntax;
import dev.capability.kernel.api.policy.SubcommandRule;
import dev.capability.kernel.api.policy.ValueRule;
import dev.capability.kernel.core.internal.authority.WriteTarget;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Checks argv against {@link ArgumentRules}, left to right, reading it as the program does
 * ({@link OptionSyntax}). Flags match their exact spelling; an abbreviated long option
 * ({@code --outp}) is refused, and a bundle of short flags ({@code -la}) or a short flag with its
 * value attached ({@code -n5}) is read letter by letter only where getopt would read it so.
 */
final class ArgumentMatcher {
  private ArgumentMatcher() {}

  /**
   * The decision for {@code argv} from index {@code start} on under {@code rules}.
   *
   * @param rulePath the dotted path of {@code rules} in the policy, for example {@code executables.git}
   * @param writeTargets receives every accepted path the rules mark as written
   */
  static Decision check(
      ArgumentRules rules, List<String> argv, int start, String rulePath, Optional<Path> workspace, List<WriteTarget> writeTargets) {
    Level level = new Level(rules, argv, rulePath, workspace, writeTargets);
    return rules.syntax() == OptionSyntax.FIND ? level.readFind(start) : level.read(start);
  }

  /**
   * How reading one flag, bundle or old-style cluster ended: with a decision for the whole argv
   * (a denial, or the verdict of rules the flag handed the rest to), or accepted through
   * {@code lastIndex}, which may be the index of its value.
   */
  private record Step(Optional<Decision> decision, int lastIndex) {
    static Step accepted(int lastIndex) {
      return new Step(Optional.empty(), lastIndex);
    }

    static Step decided(Decision decision) {
      return new Step(Optional.of(decision), -1);
    }
  }

  /** One level of rules being read over one argv. */
  private static final class Level {
    private final ArgumentRules rules;
    private final List<String> argv;
    private final String rulePath;
    private final Optional<Path> workspace;
    private final List<WriteTarget> writeTargets;
    private int operands;
    private boolean afterDoubleDash;

    Level(ArgumentRules rules, List<String> argv, String rulePath, Optional<Path> workspace, List<WriteTarget> writeTargets) {
      this.rules = rules;
      this.argv = argv;
      this.rulePath = rulePath;
      this.workspace = workspace;
      this.writeTargets = writeTargets;
    }

    /** getopt, options-first and tar syntax. */
    Decision read(int start) {
      int i = start;
      if (rules.syntax() == OptionSyntax.TAR && i < argv.size() && !argv.get(i).startsWith("-")) {
        Step cluster = oldStyleOptions(i);
        if (cluster.decision().isPresent()) {
          return cluster.decision().get();
        }
        i = cluster.lastIndex() + 1;
      }
      boolean optionsEnded = false;
      for (; i < argv.size(); i++) {
        String arg = argv.get(i);
        if (!optionsEnded && arg.equals("--")) {
          if (rules.doubleDash() == DoubleDashMode.FORBIDDEN) {
            return deny(DOUBLE_DASH_NOT_ALLOWED, rulePath + ".doubleDash", i, "-- is not allowed here");
          }
          optionsEnded = true;
          afterDoubleDash = true;
          continue;
        }
        if (!optionsEnded && arg.startsWith("-") && arg.length() > 1) {
          Step flag = flag(i);
          if (flag.decision().isPresent()) {
            return flag.decision().get();
          }
          i = flag.lastIndex();
          continue;
        }
        if (!rules.subcommands().isEmpty()) {
          SubcommandRule subcommand = rules.subcommands().get(arg);
          if (subcommand == null) {
            return deny(SUBCOMMAND_NOT_ALLOWED, rulePath + ".subcommands", i,
                "subcommand " + Printable.quote(arg) + " is not allowed; allowed: " + rules.subcommands().keySet());
          }
          return check(subcommand.arguments(), argv, i + 1, rulePath + ".subcommands." + arg, workspace, writeTargets);
        }
        // The program hands everything after its first operand to the script or command it runs.
        optionsEnded |= rules.syntax() == OptionSyntax.OPTIONS_FIRST;
        Optional<Decision> denial = operand(i);
        if (denial.isPresent()) {
          return denial.get();
        }
      }
      return end();
    }

    /** find syntax: leading options, starting points, expression. */
    Decision readFind(int start) {
      int i = start;
      while (i < argv.size()) {
        String arg = argv.get(i);
        if (arg.equals("--")) {
          if (rules.doubleDash() == DoubleDashMode.FORBIDDEN) {
            return deny(DOUBLE_DASH_NOT_ALLOWED, rulePath + ".doubleDash", i, "-- is not allowed here");
          }
          i++;
          break;
        }
        if (!FindPrimaries.isLeadingOption(arg)) {
          break;
        }
        Step option = findFlag(i);
        if (option.decision().isPresent()) {
          return option.decision().get();
        }
        i = option.lastIndex() + 1;
      }
      for (; i < argv.size() && !FindPrimaries.startsExpression(argv.get(i)); i++) {
        Optional<Decision> denial = operand(i);
        if (denial.isPresent()) {
          return denial.get();
        }
      }
      for (; i < argv.size(); i++) {
        String arg = argv.get(i);
        if (FindPrimaries.isOperator(arg)) {
          continue;
        }
        if (arg.equals("--")) {
          return deny(DOUBLE_DASH_NOT_ALLOWED, rulePath + ".doubleDash", i, "find reads -- only before the starting points");
        }
        if (!arg.startsWith("-") || arg.length() == 1) {
          return deny(OPERAND_NOT_ALLOWED, rulePath + ".operands", i,
              "find reads starting points only before the expression, got " + Printable.quote(arg) + " inside it");
        }
        if (FindPrimaries.isLeadingOption(arg)) {
          return deny(FLAG_NOT_ALLOWED, rulePath + ".flags", i, "find reads " + Printable.quote(arg) + " only before the starting points");
        }
        Step primary = findFlag(i);
        if (primary.decision().isPresent()) {
          return primary.decision().get();
        }
        i = primary.lastIndex();
      }
      return end();
    }

    private Decision end() {
      if (!rules.subcommands().isEmpty()) {
        return Decision.deny(SUBCOMMAND_NOT_ALLOWED, LAYER_OPERATOR, rulePath + ".subcommands",
            "a subcommand is required; allowed: " + rules.subcommands().keySet());
      }
      int minCount = rules.operands().map(OperandRule::minCount).orElse(0);
      if (operands < minCount) {
        return Decision.deny(TOO_FEW_OPERANDS, LAYER_OPERATOR, rulePath + ".operands",
            "at least " + minCount + " operands are required, got " + operands);
      }
      return Decision.allow(LAYER_OPERATOR, rulePath);
    }

    private Optional<Decision> operand(int index) {
      String arg = argv.get(index);
      // make and dd read an operand holding = as an assignment whatever stands before it, also after --.
      int equals = arg.indexOf('=');
      if (equals >= 0 && rules.keyValueOperands() != KeyValueMode.OPERAND) {
        return keyValue(index, arg.substring(0, equals), arg.substring(equals + 1));
      }
      if (rules.operands().isEmpty()) {
        return Optional.of(deny(OPERAND_NOT_ALLOWED, rulePath + ".operands", index,
            "no operands are allowed here, got " + Printable.quote(arg)));
      }
      if (rules.doubleDash() == DoubleDashMode.REQUIRED_BEFORE_OPERANDS && !afterDoubleDash) {
        return Optional.of(deny(OPERAND_NOT_ALLOWED, rulePath + ".doubleDash", index,
            "operands are allowed only after --, got " + Printable.quote(arg)));
      }
      OperandRule operandRule = rules.operands().get();
      operands++;
      if (operandRule.maxCount().isPresent() && operands > operandRule.maxCount().getAsInt()) {
        return Optional.of(deny(TOO_MANY_OPERANDS, rulePath + ".operands", index,
            "at most " + operandRule.maxCount().getAsInt() + " operands are allowed"));
      }
      int position = operands - 1;
      ValueRule valueRule = operandRule.ruleAt(position);
      Optional<String> problem = ValueChecker.problem(valueRule, arg, afterDoubleDash, workspace);
      if (problem.isPresent()) {
        String rule = position < operandRule.leading().size() ? rulePath + ".operands.leading[" + position + "]" : rulePath + ".operands";
        return Optional.of(deny(OPERAND_INVALID, rule, index, "operand " + Printable.quote(arg) + " " + problem.get()));
      }
      if (valueRule.write()) {
        writeTargets.add(new WriteTarget(index, arg));
      }
      return Optional.empty();
    }

    private Optional<Decision> keyValue(int index, String name, String value) {
      String arg = argv.get(index);
      if (rules.keyValueOperands() == KeyValueMode.REFUSE) {
        return Optional.of(deny(KEY_VALUE_NOT_ALLOWED, rulePath + ".keyValueOperands", index,
            "operand " + Printable.quote(arg) + " holds =, which the program reads as an assignment; such operands are refused here"));
      }
      ValueRule valueRule = rules.keyValues().get(name);
      if (valueRule == null) {
        return Optional.of(deny(KEY_VALUE_NOT_ALLOWED, rulePath + ".keyValues", index,
            "operand " + Printable.quote(arg) + " assigns " + Printable.quote(name) + ", which is not allowed; allowed: "
                + rules.keyValues().keySet()));
      }
      // The value sits inside the operand, so the program never reads it as an option.
      Optional<String> problem = ValueChecker.problem(valueRule, value, true, workspace);
      if (problem.isPresent()) {
        return Optional.of(deny(OPERAND_INVALID, rulePath + ".keyValues." + name, index,
            "value " + Printable.quote(value) + " of " + name + "= " + problem.get()));
      }
      if (valueRule.write()) {
        writeTargets.add(new WriteTarget(index, value));
      }
      return Optional.empty();
    }

    /** A flag in getopt, options-first or tar syntax, at {@code index}. */
    private Step flag(int index) {
      String arg = argv.get(index);
      String name = arg;
      String attachedValue = null;
      int equals = arg.indexOf('=');
      // Only long options take "--name=value"; a short flag's attached value is read as a bundle below.
      if (arg.startsWith("--") && equals > 0) {
        name = arg.substring(0, equals);
        attachedValue = arg.substring(equals + 1);
      }
      FlagRule flag = rules.flags().get(name);
      if (flag == null && !arg.startsWith("--") && arg.length() > 2 && rules.syntax() != OptionSyntax.OPTIONS_FIRST) {
        return bundle(index);
      }
      if (flag == null) {
        return Step.decided(deny(FLAG_NOT_ALLOWED, rulePath + ".flags", index,
            "flag " + Printable.quote(name) + " is not allowed here; allowed: " + rules.flags().keySet()));
      }
      String flagPath = rulePath + ".flags." + name;
      if (flag.value().isEmpty()) {
        if (attachedValue != null) {
          return Step.decided(deny(FLAG_VALUE_INVALID, flagPath, index, "flag " + name + " takes no value"));
        }
        return handOver(flag, name, index);
      }
      int valueIndex = index;
      String value = attachedValue;
      if (value == null) {
        valueIndex = index + 1;
        if (valueIndex >= argv.size()) {
          return Step.decided(deny(FLAG_VALUE_INVALID, flagPath, index, "flag " + name + " needs a value"));
        }
        value = argv.get(valueIndex);
      }
      Optional<Decision> denial = value(flag.value().get(), name, value, valueIndex);
      return denial.isPresent() ? Step.decided(denial.get()) : handOver(flag, name, valueIndex);
    }

    /** Continues after {@code lastIndex}, or, for a flag with arguments of its own, reads the rest by them. */
    private Step handOver(FlagRule flag, String name, int lastIndex) {
      if (flag.arguments().isEmpty()) {
        return Step.accepted(lastIndex);
      }
      return Step.decided(check(flag.arguments().get(), argv, lastIndex + 1, rulePath + ".flags." + name, workspace, writeTargets));
    }

    /**
     * {@code -xyz} not listed as written, read as getopt reads it: each letter a listed flag; the
     * first that takes a value takes the rest of the argument, or, when nothing is left, the next.
     */
    private Step bundle(int index) {
      String arg = argv.get(index);
      for (int k = 1; k < arg.length(); k++) {
        char letter = arg.charAt(k);
        if (!isOptionLetter(letter)) {
          return Step.decided(deny(FLAG_NOT_ALLOWED, rulePath + ".flags", index, "flag " + Printable.quote(arg)
              + " is not allowed here, and is no bundle of one-letter flags (" + Printable.quote(String.valueOf(letter))
              + " is not an option letter); allowed: " + rules.flags().keySet()));
        }
        String name = "-" + letter;
        FlagRule flag = rules.flags().get(name);
        if (flag == null) {
          return Step.decided(deny(FLAG_NOT_ALLOWED, rulePath + ".flags", index, "flag " + Printable.quote(name) + " (in "
              + Printable.quote(arg) + ") is not allowed here; allowed: " + rules.flags().keySet()));
        }
        if (flag.value().isEmpty()) {
          continue;
        }
        String flagPath = rulePath + ".flags." + name;
        if (k + 1 < arg.length()) {
          String attached = arg.substring(k + 1);
          if (attached.startsWith("=")) {
            // getopt reads -o=x as the value "=x", argparse as "x": no rule can hold both readings.
            return Step.decided(deny(FLAG_VALUE_INVALID, flagPath, index, "value " + Printable.quote(attached) + " attached to flag "
                + name + " starts with =, which programs read differently; write " + name + " VALUE"));
          }
          Optional<Decision> denial = value(flag.value().get(), name, attached, index);
          return denial.isPresent() ? Step.decided(denial.get()) : Step.accepted(index);
        }
        if (index + 1 >= argv.size()) {
          return Step.decided(deny(FLAG_VALUE_INVALID, flagPath, index,
              "flag " + name + " (in " + Printable.quote(arg) + ") needs a value"));
        }
        Optional<Decision> denial = value(flag.value().get(), name, argv.get(index + 1), index + 1);
        return denial.isPresent() ? Step.decided(denial.get()) : Step.accepted(index + 1);
      }
      return Step.accepted(index);
    }

    /**
     * tar's first argument when it does not start with {@code -}: each letter the flag
     * {@code -LETTER}, the letters that take a value taking the following arguments in order.
     */
    private Step oldStyleOptions(int index) {
      String cluster = argv.get(index);
      if (cluster.isEmpty()) {
        return Step.decided(deny(FLAG_NOT_ALLOWED, rulePath + ".flags", index,
            "tar reads its first argument as old-style option letters, and this one is empty"));
      }
      int next = index + 1;
      for (int k = 0; k < cluster.length(); k++) {
        char letter = cluster.charAt(k);
        String name = "-" + letter;
        FlagRule flag = isOptionLetter(letter) ? rules.flags().get(name) : null;
        if (flag == null) {
          return Step.decided(deny(FLAG_NOT_ALLOWED, rulePath + ".flags", index, "tar reads its first argument "
              + Printable.quote(cluster) + " as old-style options, and its letter " + Printable.quote(String.valueOf(letter))
              + " (" + Printable.quote(name) + ") is not allowed here; allowed: " + rules.flags().keySet()));
        }
        if (flag.value().isPresent()) {
          if (next >= argv.size()) {
            return Step.decided(deny(FLAG_VALUE_INVALID, rulePath + ".flags." + name, index, "old-style option " + letter + " of "
                + Printable.quote(cluster) + " needs a value, which tar takes from the arguments after it"));
          }
          Optional<Decision> denial = value(flag.value().get(), name, argv.get(next), next);
          if (denial.isPresent()) {
            return Step.decided(denial.get());
          }
          next++;
        }
      }
      return Step.accepted(next - 1);
    }

    /** A leading option or primary in find syntax, at {@code index}: exact spelling, the arguments find reads for it. */
    private Step findFlag(int index) {
      String name = argv.get(index);
      FlagRule flag = rules.flags().get(name);
      if (flag == null) {
        return Step.decided(deny(FLAG_NOT_ALLOWED, rulePath + ".flags", index,
            "find " + (FindPrimaries.isLeadingOption(name) ? "option " : "primary ") + Printable.quote(name)
                + " is not allowed here; allowed: " + rules.flags().keySet()));
      }
      String flagPath = rulePath + ".flags." + name;
      // Validation refuses such a rule; a policy that skipped it must not have find read other arguments than the rule.
      Optional<String> misdeclared = FindPrimaries.declarationProblem(name, flag.value().isPresent());
      if (misdeclared.isPresent()) {
        return Step.decided(deny(FLAG_NOT_ALLOWED, flagPath, index, misdeclared.get()));
      }
      if (flag.value().isEmpty()) {
        return Step.accepted(index);
      }
      if (index + 1 >= argv.size()) {
        return Step.decided(deny(FLAG_VALUE_INVALID, flagPath, index, "find primary " + name + " needs a value"));
      }
      Optional<Decision> denial = value(flag.value().get(), name, argv.get(index + 1), index + 1);
      return denial.isPresent() ? Step.decided(denial.get()) : Step.accepted(index + 1);
    }

    /** Checks the value of flag {@code name}, which stands at {@code valueIndex}, and records it when it is written. */
    private Optional<Decision> value(ValueRule valueRule, String name, String value, int valueIndex) {
      String flagPath = rulePath + ".flags." + name;
      Optional<String> problem = ValueChecker.problem(valueRule, value, false, workspace);
      if (problem.isEmpty() && rules.syntax() == OptionSyntax.TAR && (name.equals("-f") || name.equals("--file"))) {
        problem = remoteArchive(value);
      }
      if (problem.isPresent()) {
        return Optional.of(deny(FLAG_VALUE_INVALID, flagPath, valueIndex,
            "value " + Printable.quote(value) + " of flag " + name + " " + problem.get()));
      }
      if (valueRule.write()) {
        writeTargets.add(new WriteTarget(valueIndex, value));
      }
      return Optional.empty();
    }

    private static Optional<String> remoteArchive(String archive) {
      int colon = archive.indexOf(':');
      if (colon > 0 && archive.lastIndexOf('/', colon) < 0) {
        return Optional.of("has : before any /, which tar reads as HOST:FILE on a remote machine and reaches through a remote shell;"
            + " write ./" + archive + " for a local file");
      }
      return Optional.empty();
    }

    /** ASCII letters and digits: the option characters of getopt strings; anything else would be read byte by byte. */
    private static boolean isOptionLetter(char c) {
      return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
    }

    private static Decision deny(String code, String rule, int index, String message) {
      return Decision.deny(code, LAYER_OPERATOR, rule, index, message + " (argv[" + index + "])");
    }
  }
}
