package dev.capability.kernel.api.policy;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * The operands (non-flag arguments) allowed at one level of argument rules.
 *
 * @param value what every operand must be
 * @param minCount the fewest operands, at least 0
 * @param maxCount the most operands; empty for no upper bound
 */
public record OperandRule(ValueRule value, int minCount, OptionalInt maxCount) {

  public OperandRule {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(maxCount, "maxCount");
    if (minCount < 0) {
      throw new IllegalArgumentException("minCount must not be negative, was " + minCount);
    }
    if (maxCount.isPresent() && maxCount.getAsInt() < minCount) {
      throw new IllegalArgumentException("maxCount " + maxCount.getAsInt() + " is less than minCount " + minCount);
    }
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
}
