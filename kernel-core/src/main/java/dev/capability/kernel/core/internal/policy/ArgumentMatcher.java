package dev.capability.kernel.core.internal.policy;

import static dev.capability.kernel.api.policy.PolicyCodes.DOUBLE_DASH_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.FLAG_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.FLAG_VALUE_INVALID;
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
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.SubcommandRule;
import dev.capability.kernel.api.policy.ValueRule;
import dev.capability.kernel.core.internal.authority.WriteTarget;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Checks argv against {@link ArgumentRules}, left to right. Flags match only their exact
 * spelling, so an abbreviated long option ({@code --outp}) or a bundle of short flags
 * ({@code -la}) is refused unless it is listed as written.
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
    boolean afterDoubleDash = false;
    int operands = 0;
    for (int i = start; i < argv.size(); i++) {
      String arg = argv.get(i);
      if (!afterDoubleDash && arg.equals("--")) {
        if (rules.doubleDash() == DoubleDashMode.FORBIDDEN) {
          return deny(DOUBLE_DASH_NOT_ALLOWED, rulePath + ".doubleDash", i, "-- is not allowed here");
        }
        afterDoubleDash = true;
        continue;
      }
      if (!afterDoubleDash && arg.startsWith("-") && arg.length() > 1) {
        FlagOutcome flag = checkFlag(rules, argv, i, rulePath, workspace, writeTargets);
        if (flag.denial().isPresent()) {
          return flag.denial().get();
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
      if (rules.operands().isEmpty()) {
        return deny(OPERAND_NOT_ALLOWED, rulePath + ".operands", i, "no operands are allowed here, got " + Printable.quote(arg));
      }
      if (rules.doubleDash() == DoubleDashMode.REQUIRED_BEFORE_OPERANDS && !afterDoubleDash) {
        return deny(OPERAND_NOT_ALLOWED, rulePath + ".doubleDash", i,
            "operands are allowed only after --, got " + Printable.quote(arg));
      }
      OperandRule operandRule = rules.operands().get();
      operands++;
      if (operandRule.maxCount().isPresent() && operands > operandRule.maxCount().getAsInt()) {
        return deny(TOO_MANY_OPERANDS, rulePath + ".operands", i, "at most " + operandRule.maxCount().getAsInt() + " operands are allowed");
      }
      int position = operands - 1;
      ValueRule valueRule = operandRule.ruleAt(position);
      Optional<String> problem = ValueChecker.problem(valueRule, arg, afterDoubleDash, workspace);
      if (problem.isPresent()) {
        String rule = position < operandRule.leading().size() ? rulePath + ".operands.leading[" + position + "]" : rulePath + ".operands";
        return deny(OPERAND_INVALID, rule, i, "operand " + Printable.quote(arg) + " " + problem.get());
      }
      if (valueRule.write()) {
        writeTargets.add(new WriteTarget(i, arg));
      }
    }
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

  /** A flag either denied, or accepted through {@code lastIndex} (its value may be the next argument). */
  private record FlagOutcome(Optional<Decision> denial, int lastIndex) {
    static FlagOutcome accepted(int lastIndex) {
      return new FlagOutcome(Optional.empty(), lastIndex);
    }

    static FlagOutcome denied(Decision denial) {
      return new FlagOutcome(Optional.of(denial), -1);
    }
  }

  private static FlagOutcome checkFlag(
      ArgumentRules rules, List<String> argv, int index, String rulePath, Optional<Path> workspace, List<WriteTarget> writeTargets) {
    String arg = argv.get(index);
    String name = arg;
    String attachedValue = null;
    int equals = arg.indexOf('=');
    // Only long options take "--name=value"; "-o=x" stays one token, which getopt would read as value "=x".
    if (arg.startsWith("--") && equals > 0) {
      name = arg.substring(0, equals);
      attachedValue = arg.substring(equals + 1);
    }
    FlagRule flag = rules.flags().get(name);
    if (flag == null) {
      return FlagOutcome.denied(deny(FLAG_NOT_ALLOWED, rulePath + ".flags", index,
          "flag " + Printable.quote(name) + " is not allowed here; allowed: " + rules.flags().keySet()));
    }
    String flagPath = rulePath + ".flags." + name;
    if (flag.value().isEmpty()) {
      if (attachedValue != null) {
        return FlagOutcome.denied(deny(FLAG_VALUE_INVALID, flagPath, index, "flag " + name + " takes no value"));
      }
      return FlagOutcome.accepted(index);
    }
    int valueIndex = index;
    String value = attachedValue;
    if (value == null) {
      valueIndex = index + 1;
      if (valueIndex >= argv.size()) {
        return FlagOutcome.denied(deny(FLAG_VALUE_INVALID, flagPath, index, "flag " + name + " needs a value"));
      }
      value = argv.get(valueIndex);
    }
    ValueRule valueRule = flag.value().get();
    Optional<String> problem = ValueChecker.problem(valueRule, value, false, workspace);
    if (problem.isPresent()) {
      return FlagOutcome.denied(deny(FLAG_VALUE_INVALID, flagPath, valueIndex,
          "value " + Printable.quote(value) + " of flag " + name + " " + problem.get()));
    }
    if (valueRule.write()) {
      writeTargets.add(new WriteTarget(valueIndex, value));
    }
    return FlagOutcome.accepted(valueIndex);
  }

  private static Decision deny(String code, String rule, int index, String message) {
    return Decision.deny(code, LAYER_OPERATOR, rule, index, message + " (argv[" + index + "])");
  }
}
