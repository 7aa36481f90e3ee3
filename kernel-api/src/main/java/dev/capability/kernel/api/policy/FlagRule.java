package dev.capability.kernel.api.policy;

import java.util.Objects;
import java.util.Optional;

/**
 * One allowed flag. A flag matches only its exact spelling: no abbreviation of long options, no
 * bundling of short ones. A flag with a value takes it as the next argument, or, for flags
 * starting with {@code --}, after {@code =} in the same argument.
 *
 * @param value what the flag's value must be; empty for a flag that takes none
 */
public record FlagRule(Optional<ValueRule> value) {

  public FlagRule {
    Objects.requireNonNull(value, "value");
  }

  /** A flag without a value. */
  public static FlagRule plain() {
    return new FlagRule(Optional.empty());
  }

  /** A flag whose value must satisfy {@code value}. */
  public static FlagRule withValue(ValueRule value) {
    return new FlagRule(Optional.of(Objects.requireNonNull(value, "value")));
  }
}
