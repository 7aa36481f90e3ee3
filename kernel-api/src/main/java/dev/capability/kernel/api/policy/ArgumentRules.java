package dev.capability.kernel.api.policy;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Typed rules for the arguments at one level of a command: after argv[0], or after a
 * subcommand's name. Arguments are read left to right; before {@code --} every argument that
 * starts with {@code -} (other than {@code -} itself) is a flag and must be listed exactly in
 * {@link #flags()}; everything else is an operand, or, at a level with subcommands, the
 * subcommand's name.
 *
 * <p>A level with subcommands requires one: its own flags may come first, then the subcommand's
 * name, and the rest is read by that subcommand's rules. Such a level takes no operands and no
 * {@code --}.
 *
 * @param flags allowed flags by exact spelling
 * @param subcommands allowed subcommands by name
 * @param operands the operands allowed; empty when none are
 * @param doubleDash how {@code --} is treated
 */
public record ArgumentRules(
    Map<String, FlagRule> flags,
    Map<String, SubcommandRule> subcommands,
    Optional<OperandRule> operands,
    DoubleDashMode doubleDash) {

  public ArgumentRules {
    flags = sortedCopy(flags, "flags");
    subcommands = sortedCopy(subcommands, "subcommands");
    Objects.requireNonNull(operands, "operands");
    Objects.requireNonNull(doubleDash, "doubleDash");
    if (!subcommands.isEmpty() && (operands.isPresent() || doubleDash != DoubleDashMode.FORBIDDEN)) {
      throw new IllegalArgumentException("a level with subcommands takes no operands and no --");
    }
    if (operands.isEmpty() && doubleDash != DoubleDashMode.FORBIDDEN) {
      throw new IllegalArgumentException("-- may be allowed only where operands are");
    }
  }

  private static <V> SortedMap<String, V> sortedCopy(Map<String, V> map, String name) {
    Objects.requireNonNull(map, name);
    TreeMap<String, V> copy = new TreeMap<>();
    map.forEach((key, value) -> copy.put(Objects.requireNonNull(key, name + " key"), Objects.requireNonNull(value, name + " value")));
    return Collections.unmodifiableSortedMap(copy);
  }

  /** Starts empty rules: no flags, no subcommands, no operands, {@code --} forbidden. */
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
    return b;
  }

  /** Builds {@link ArgumentRules}. */
  public static final class Builder {
    private final Map<String, FlagRule> flags = new TreeMap<>();
    private final Map<String, SubcommandRule> subcommands = new TreeMap<>();
    private OperandRule operands;
    private DoubleDashMode doubleDash = DoubleDashMode.FORBIDDEN;

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

    /** The rules. */
    public ArgumentRules build() {
      return new ArgumentRules(flags, subcommands, Optional.ofNullable(operands), doubleDash);
    }
  }
}
