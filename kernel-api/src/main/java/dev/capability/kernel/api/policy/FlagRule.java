package dev.capability.kernel.api.policy;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One allowed flag. A flag matches its exact spelling; in {@link OptionSyntax#GETOPT} syntax a
 * bundle of listed one-letter flags matches too ({@code -la} for {@code -l} and {@code -a}). A
 * flag with a value takes it as the next argument, attached to a one-letter flag
 * ({@code -n5}, getopt and tar syntax), or after {@code =} for a flag starting with {@code --}.
 *
 * @param value what the flag's value must be; empty for a flag that takes none
 * @param arguments when present, the flag ends the options and the rest of argv (after its
 *     value) is read by these rules, as {@code python3 -m MODULE ARGS...} hands the rest to the
 *     module; only at an {@link OptionSyntax#OPTIONS_FIRST} level
 */
public record FlagRule(Optional<ValueRule> value, Optional<ArgumentRules> arguments) {

  public FlagRule {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(arguments, "arguments");
  }

  /** A flag with {@code value}, or none when null, that ends no options. */
  public FlagRule(@Nullable ValueRule value) {
    this(Optional.ofNullable(value), Optional.empty());
  }

  /** A flag without a value. */
  public static FlagRule plain() {
    return new FlagRule(null);
  }

  /** A flag whose value must satisfy {@code value}. */
  public static FlagRule withValue(ValueRule value) {
    return new FlagRule(Objects.requireNonNull(value, "value"));
  }

  /** This flag, ending the options: the arguments after it (and its value) are read by {@code rest}. */
  public FlagRule followedBy(ArgumentRules rest) {
    return new FlagRule(value, Optional.of(Objects.requireNonNull(rest, "rest")));
  }
}
