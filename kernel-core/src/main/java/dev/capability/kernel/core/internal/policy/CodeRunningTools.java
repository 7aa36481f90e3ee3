package dev.capability.kernel.core.internal.policy;

import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_ARBITRARY_CODE_NOT_ACCEPTED;

import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.FlagRule;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.ValueKind;
import dev.capability.kernel.api.policy.ValueRule;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Text tools whose first operand is a program in their own language, which can start processes
 * and write files: {@code awk} ({@code system()}, {@code | "sh"}, {@code print > file}) and
 * {@code sed} ({@code e}, {@code w}, {@code r}). Operators allow them as if they were filters; a
 * typed rule that lets a request choose that program (an operand or a program-supplying flag that
 * is not a fixed literal, or for sed not a {@link ValueKind#SED_SCRIPT}) is refused at load
 * unless the rule says {@code "arbitraryCode": true}. Exact argument lists are the operator's own
 * programs and need nothing.
 */
final class CodeRunningTools {
  private static final Set<String> AWK = Set.of("awk", "gawk", "mawk", "nawk", "original-awk", "busybox-awk");
  private static final Set<String> SED = Set.of("sed", "gsed");
  /** awk flags whose value is program text. */
  private static final Set<String> AWK_SOURCE_FLAGS = Set.of("-e", "--source");
  /** awk flags whose value names a file of code or a library to load: what it holds is not in the policy. */
  private static final Set<String> AWK_FILE_FLAGS = Set.of("-f", "--file", "-E", "--exec", "-i", "--include", "-l", "--load");
  private static final Set<String> SED_SCRIPT_FLAGS = Set.of("-e", "--expression");
  private static final Set<String> SED_FILE_FLAGS = Set.of("-f", "--file");

  private CodeRunningTools() {}

  /**
   * Refuses {@code rule} when it lets a request choose awk or sed code without the operator's
   * {@code arbitraryCode}.
   *
   * @param program the rule's bare name or canonical path
   * @param pointer the rule's JSON pointer
   */
  static void requireAccepted(ExecutableRule rule, String program, String pointer) {
    if (rule.acceptsArbitraryCode() || rule.arguments().isEmpty()) {
      return;
    }
    String tool = Path.of(program).getFileName().toString().toLowerCase(Locale.ROOT);
    Optional<String> where = Optional.empty();
    if (AWK.contains(tool)) {
      where = awkCode(rule.arguments().get());
    } else if (SED.contains(tool)) {
      where = sedCode(rule.arguments().get());
    }
    if (where.isPresent()) {
      throw new PolicyException(POLICY_ARBITRARY_CODE_NOT_ACCEPTED, "at " + JsonPointers.show(pointer) + ": " + tool
          + " runs " + where.get() + " as a program that can start processes and write files; allow fixed programs"
          + (SED.contains(tool) ? " (\"exact\" lists, literals, or the sed-script kind)" : " (\"exact\" lists or literals)")
          + ", or accept arbitrary code with \"arbitraryCode\": true in this rule");
    }
  }

  private static Optional<String> awkCode(ArgumentRules rules) {
    for (Map.Entry<String, FlagRule> flag : rules.flags().entrySet()) {
      if (AWK_FILE_FLAGS.contains(flag.getKey()) && flag.getValue().value().isPresent()) {
        return Optional.of("the file named by " + flag.getKey());
      }
      if (AWK_SOURCE_FLAGS.contains(flag.getKey()) && chosenByRequest(flag.getValue().value(), false)) {
        return Optional.of("the value of " + flag.getKey());
      }
    }
    if (rules.operands().isPresent() && chosenByRequest(Optional.of(firstOperand(rules.operands().get())), false)) {
      return Optional.of("its first operand");
    }
    return Optional.empty();
  }

  private static Optional<String> sedCode(ArgumentRules rules) {
    for (Map.Entry<String, FlagRule> flag : rules.flags().entrySet()) {
      if (SED_FILE_FLAGS.contains(flag.getKey()) && flag.getValue().value().isPresent()) {
        return Optional.of("the file named by " + flag.getKey());
      }
      if (SED_SCRIPT_FLAGS.contains(flag.getKey()) && chosenByRequest(flag.getValue().value(), true)) {
        return Optional.of("the value of " + flag.getKey());
      }
    }
    if (rules.operands().isPresent() && chosenByRequest(Optional.of(firstOperand(rules.operands().get())), true)) {
      return Optional.of("its first operand");
    }
    return Optional.empty();
  }

  private static ValueRule firstOperand(OperandRule operands) {
    return operands.ruleAt(0);
  }

  /** Whether a value under {@code rule} is code the request chooses: anything but a literal (or a checked sed script). */
  private static boolean chosenByRequest(Optional<ValueRule> rule, boolean sedScriptChecked) {
    if (rule.isEmpty()) {
      return false;
    }
    ValueKind kind = rule.get().kind();
    return kind != ValueKind.LITERAL && !(sedScriptChecked && kind == ValueKind.SED_SCRIPT);
  }
}
