package dev.capability.kernel.api.policy;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Typed rules for the arguments at one level of a command: after argv[0], after a subcommand's
 * name, or after a flag that hands the rest of argv to rules of its own. Arguments are read left
 * to right as the program reads them, which {@link #syntax()} says: every argument the program
 * reads as a flag must be listed in {@link #flags()}; everything else is an operand, or, at a
 * level with subcommands, the subcommand's name.
 *
 * <p>A level with subcommands requires one: its own flags may come first, then the subcommand's
 * name, and the rest is read by that subcommand's rules. Such a level takes no operands and no
 * {@code --}.
 *
 * @param flags allowed flags by exact spelling
 * @param subcommands allowed subcommands by name
 * @param operands the operands allowed; empty when none are
 * @param doubleDash how {@code --} is treated
 * @param syntax how the program reads its options
 * @param keyValueOperands what an operand holding {@code =} is
 * @param keyValues the accepted {@code NAME=value} operands by {@code NAME}; non-empty exactly
 *     when {@code keyValueOperands} is {@link KeyValueMode#TYPED}
 */
public record ArgumentRules(
    Map<String, FlagRule> flags,
    Map<String, SubcommandRule> subcommands,
    Optional<OperandRule> operands,
    DoubleDashMode doubleDash,
    OptionSyntax syntax,
    KeyValueMode keyValueOperands,
    Map<String, ValueRule> keyValues) {

  public ArgumentRules {
    flags = sortedCopy(flags, "flags");
    subcommands = sortedCopy(subcommands, "subcommands");
    Objects.requireNonNull(operands, "operands");
    Objects.requireNonNull(doubleDash, "doubleDash");
    Objects.requireNonNull(syntax, "syntax");
    Objects.requireNonNull(keyValueOperands, "keyValueOperands");
    keyValues = sortedCopy(keyValues, "keyValues");
    if (!subcommands.isEmpty() && (operands.isPresent() || doubleDash != DoubleDashMode.FORBIDDEN)) {
      throw new IllegalArgumentException("a level with subcommands takes no operands and no --");
    }
    if (operands.isEmpty() && doubleDash != DoubleDashMode.FORBIDDEN) {
      throw new IllegalArgumentException("-- may be allowed only where operands are");
    }
    if (!subcommands.isEmpty() && (syntax == OptionSyntax.FIND || syntax == OptionSyntax.TAR)) {
      throw new IllegalArgumentException("a level with subcommands reads getopt or options-first syntax");
    }
    if (syntax == OptionSyntax.FIND && doubleDash == DoubleDashMode.REQUIRED_BEFORE_OPERANDS) {
      throw new IllegalArgumentException("find reads -- only before its starting points and never needs it before them");
    }
    if ((keyValueOperands == KeyValueMode.TYPED) == keyValues.isEmpty()) {
      throw new IllegalArgumentException("typed key=value operands need at least one keyValues entry, and only they may have keyValues");
    }
    if (!subcommands.isEmpty() && keyValueOperands == KeyValueMode.TYPED) {
      throw new IllegalArgumentException("a level with subcommands takes no operands, key=value ones included");
    }
    if (syntax != OptionSyntax.OPTIONS_FIRST) {
      flags.forEach((name, flag) -> {
        if (flag.arguments().isPresent()) {
          throw new IllegalArgumentException("flag " + name + " has arguments of its own, which only an options-first level reads");
        }
      });
    }
  }

  /** Rules in {@link OptionSyntax#GETOPT} syntax without key=value operands; no operands when {@code operands} is null. */
  public ArgumentRules(
      Map<String, FlagRule> flags, Map<String, SubcommandRule> subcommands, @Nullable OperandRule operands, DoubleDashMode doubleDash) {
    this(flags, subcommands, Optional.ofNullable(operands), doubleDash, OptionSyntax.GETOPT, KeyValueMode.OPERAND, Map.of());
  }

  private static <V> SortedMap<String, V> sortedCopy(Map<String, V> map, String name) {
    Objects.requireNonNull(map, name);
    TreeMap<String, V> copy = new TreeMap<>();
    map.forEach((key, value) -> copy.put(Objects.requireNonNull(key, name + " key"), Objects.requireNonNull(value, name + " value")));
    return Collections.unmodifiableSortedMap(copy);
  }

  /**
   * Starts empty rules: no flags, no subcommands, no operands, {@code --} forbidden,
   * {@link OptionSyntax#GETOPT}, operands holding {@code =} ordinary operands.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these rules. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.flags.putAll(flags);
    b.subcommands.putAll(subcommands);
    b.operands = operands.orElse(null);
    b.doubleDash = doubleDash;
    b.syntax = syntax;
    b.keyValueOperands = keyValueOperands;
    b.keyValues.putAll(keyValues);
    return b;
  }

  /** Builds {@link ArgumentRules}. */
  public static final class Builder {
    private final Map<String, FlagRule> flags = new TreeMap<>();
    private final Map<String, SubcommandRule> subcommands = new TreeMap<>();
    private @Nullable OperandRule operands;
    private DoubleDashMode doubleDash = DoubleDashMode.FORBIDDEN;
    private OptionSyntax syntax = OptionSyntax.GETOPT;
    private KeyValueMode keyValueOperands = KeyValueMode.OPERAND;
    private final Map<String, ValueRule> keyValues = new TreeMap<>();

    private Builder() {}

    /** Allows the flag {@code name} without a value. */
    public Builder flag(String name) {
      return flag(name, FlagRule.plain());
    }

    /** Allows the flag {@code name} as {@code rule} says. */
    public Builder flag(String name, FlagRule rule) {
      flags.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(rule, "rule"));
      return this;
    }

    /** Allows the subcommand {@code name} as {@code rule} says. */
    public Builder subcommand(String name, SubcommandRule rule) {
      subcommands.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(rule, "rule"));
      return this;
    }

    /** Allows operands as {@code rule} says. */
    public Builder operands(OperandRule rule) {
      this.operands = Objects.requireNonNull(rule, "rule");
      return this;
    }

    /** How {@code --} is treated; the default is {@link DoubleDashMode#FORBIDDEN}. */
    public Builder doubleDash(DoubleDashMode mode) {
      this.doubleDash = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /** How the program reads its options; the default is {@link OptionSyntax#GETOPT}. */
    public Builder syntax(OptionSyntax syntax) {
      this.syntax = Objects.requireNonNull(syntax, "syntax");
      return this;
    }

    /** What an operand holding {@code =} is; the default is {@link KeyValueMode#OPERAND}. */
    public Builder keyValueOperands(KeyValueMode mode) {
      this.keyValueOperands = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /** Accepts the operand {@code name=VALUE} when VALUE satisfies {@code rule}; needs {@link KeyValueMode#TYPED}. */
    public Builder keyValue(String name, ValueRule rule) {
      keyValues.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(rule, "rule"));
      return this;
    }

    /**
     * The rules.
     *
     * @throws IllegalArgumentException when the settings contradict each other
     */
    public ArgumentRules build() {
      return new ArgumentRules(flags, subcommands, Optional.ofNullable(operands), doubleDash, syntax, keyValueOperands, keyValues);
    }
  }
}
