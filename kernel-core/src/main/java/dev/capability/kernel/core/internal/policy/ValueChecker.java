package dev.capability.kernel.core.internal.policy;

import dev.capability.kernel.api.policy.ValueRule;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/** Decides whether one flag value or operand satisfies its {@link ValueRule}. */
final class ValueChecker {
  private ValueChecker() {}

  // No sign prefix "+" and no leading zeros: some programs read "010" as octal.
  private static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]{0,18})");

  /**
   * Why {@code value} fails {@code rule}, or empty when it passes.
   *
   * @param leadingDashAllowed true only for an operand after {@code --}
   * @param workspace when present, paths must also lie lexically inside it
   */
  static Optional<String> problem(ValueRule rule, String value, boolean leadingDashAllowed, Optional<Path> workspace) {
    return switch (rule.kind()) {
      case PATH -> pathProblem(value, leadingDashAllowed, workspace);
      case LITERAL -> rule.literals().contains(value)
          ? Optional.empty()
          : Optional.of("is not one of " + rule.literals().stream().map(Printable::quote).toList());
      case INTEGER -> integerProblem(rule, value);
      case STRING -> textProblem(value, leadingDashAllowed);
      case SED_SCRIPT -> textProblem(value, leadingDashAllowed).or(() -> SedScript.problem(value));
    };
  }

  private static Optional<String> textProblem(String value, boolean leadingDashAllowed) {
    if (value.startsWith("-") && !leadingDashAllowed) {
      return Optional.of("starts with -; such a value is accepted only as an operand after --");
    }
    int bad = Characters.firstUnsafe(value);
    if (bad >= 0) {
      return Optional.of(String.format("contains the control or invisible character U+%04X at index %d", (int) value.charAt(bad), bad));
    }
    return Optional.empty();
  }

  private static Optional<String> pathProblem(String value, boolean leadingDashAllowed, Optional<Path> workspace) {
    if (value.isEmpty()) {
      return Optional.of("is an empty path");
    }
    if (value.startsWith("/")) {
      return Optional.of("is an absolute path; paths must be relative to the workspace");
    }
    if (value.startsWith("~")) {
      return Optional.of("starts with ~, which some programs expand to a home directory");
    }
    if (value.startsWith("-") && !leadingDashAllowed) {
      return Optional.of("starts with -; such a path is accepted only as an operand after --");
    }
    int bad = Characters.firstUnsafe(value);
    if (bad >= 0) {
      return Optional.of(String.format("contains the control or invisible character U+%04X at index %d", (int) value.charAt(bad), bad));
    }
    for (String segment : value.split("/", -1)) {
      if (segment.equals("..")) {
        return Optional.of("has a .. segment");
      }
    }
    if (workspace.isPresent()) {
      Path root = workspace.get().toAbsolutePath().normalize();
      if (!root.resolve(value).normalize().startsWith(root)) {
        return Optional.of("lies outside the workspace " + root);
      }
    }
    return Optional.empty();
  }

  private static Optional<String> integerProblem(ValueRule rule, String value) {
    if (!INTEGER.matcher(value).matches()) {
      return Optional.of("is not a decimal integer without + or leading zeros");
    }
    long number;
    try {
      number = Long.parseLong(value);
    } catch (NumberFormatException e) {
      return Optional.of("is out of range");
    }
    if (rule.min().isPresent() && number < rule.min().getAsLong()) {
      return Optional.of("is less than " + rule.min().getAsLong());
    }
    if (rule.max().isPresent() && number > rule.max().getAsLong()) {
      return Optional.of("is greater than " + rule.max().getAsLong());
    }
    return Optional.empty();
  }
}
