package dev.capability.kernel.api.policy;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The operands (non-flag arguments) allowed at one level of argument rules.
 *
 * <p>Operands are counted in argv order, flags and their values skipped, as the program reads
 * them ({@link OptionSyntax}); {@code NAME=value} operands a rule types are not counted. The
 * first operands may have rules of their own ({@code leading}): the script of {@code sed} or
 * the pattern of {@code grep} comes first and the paths after it. A
 * rule that relies on this must not allow a flag that supplies the script or pattern instead
 * ({@code sed -e}, {@code grep -e}, {@code -f}), because the program then reads the first
 * operand as a path.
 *
 * @param value what every operand after the leading ones must be
 * @param minCount the fewest operands, at least 0
 * @param maxCount the most operands; empty for no upper bound, otherwise at least the number of
 *     leading rules
 * @param leading what the first, second, ... operand must be, in order; empty when every operand
 *     is {@code value}
 */
public record OperandRule(ValueRule value, int minCount, OptionalInt maxCount, List<ValueRule> leading) {

  public OperandRule {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(maxCount, "maxCount");
    leading = List.copyOf(Objects.requireNonNull(leading, "leading"));
    if (minCount < 0) {
      throw new IllegalArgumentException("minCount must not be negative, was " + minCount);
    }
    if (maxCount.isPresent() && maxCount.getAsInt() < minCount) {
      throw new IllegalArgumentException("maxCount " + maxCount.getAsInt() + " is less than minCount " + minCount);
    }
    if (maxCount.isPresent() && maxCount.getAsInt() < leading.size()) {
      throw new IllegalArgumentException("maxCount " + maxCount.getAsInt() + " leaves leading operand rules that can never apply ("
          + leading.size() + " given)");
    }
  }

  /** Operands of {@code value} between {@code minCount} and {@code maxCount}, without leading rules. */
  public OperandRule(ValueRule value, int minCount, OptionalInt maxCount) {
    this(value, minCount, maxCount, List.of());
  }

  /** Any number of operands of {@code value}. */
  public static OperandRule any(ValueRule value) {
    return new OperandRule(value, 0, OptionalInt.empty());
  }

  /** Between {@code minCount} and {@code maxCount} operands of {@code value}. */
  public static OperandRule between(ValueRule value, int minCount, int maxCount) {
    return new OperandRule(value, minCount, OptionalInt.of(maxCount));
  }

  /** At least {@code minCount} operands of {@code value}. */
  public static OperandRule atLeast(ValueRule value, int minCount) {
    return new OperandRule(value, minCount, OptionalInt.empty());
  }

  /** These rules, with the first operands held to {@code leading} in order. */
  public OperandRule withLeading(ValueRule... leading) {
    return new OperandRule(value, minCount, maxCount, List.of(leading));
  }

  /** The rule for the operand at {@code position} (0 for the first operand). */
  public ValueRule ruleAt(int position) {
    return position < leading.size() ? leading.get(position) : value;
  }
}
