package dev.capability.kernel.api.policy;

import java.util.Collections;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one flag value or operand must be.
 *
 * @param kind the type of the value
 * @param literals the accepted strings; non-empty for {@link ValueKind#LITERAL}, empty otherwise
 * @param min the smallest accepted integer, only for {@link ValueKind#INTEGER}
 * @param max the largest accepted integer, only for {@link ValueKind#INTEGER}
 * @param write true for a {@link ValueKind#PATH} the command writes: before launch the kernel
 *     refuses it when it is protected, outside the effective write scope, or reached through a link
 */
public record ValueRule(ValueKind kind, Set<String> literals, OptionalLong min, OptionalLong max, boolean write) {

  public ValueRule {
    Objects.requireNonNull(kind, "kind");
    literals = Collections.unmodifiableSet(new TreeSet<>(Objects.requireNonNull(literals, "literals")));
    Objects.requireNonNull(min, "min");
    Objects.requireNonNull(max, "max");
    if ((kind == ValueKind.LITERAL) == literals.isEmpty()) {
      throw new IllegalArgumentException("a literal value needs at least one literal, and only it may have literals");
    }
    if (kind != ValueKind.INTEGER && (min.isPresent() || max.isPresent())) {
      throw new IllegalArgumentException("only an integer value may have min or max");
    }
    if (min.isPresent() && max.isPresent() && min.getAsLong() > max.getAsLong()) {
      throw new IllegalArgumentException("min " + min.getAsLong() + " exceeds max " + max.getAsLong());
    }
    if (write && kind != ValueKind.PATH) {
      throw new IllegalArgumentException("only a path value may be a write target");
    }
  }

  /** A relative path inside the workspace. */
  public static ValueRule path() {
    return new ValueRule(ValueKind.PATH, Set.of(), OptionalLong.empty(), OptionalLong.empty(), false);
  }

  /** A relative path inside the workspace that the command writes. */
  public static ValueRule writePath() {
    return new ValueRule(ValueKind.PATH, Set.of(), OptionalLong.empty(), OptionalLong.empty(), true);
  }

  /** One of {@code literals}. */
  public static ValueRule literal(Set<String> literals) {
    return new ValueRule(ValueKind.LITERAL, literals, OptionalLong.empty(), OptionalLong.empty(), false);
  }

  /** One of {@code literals}. */
  public static ValueRule literal(String... literals) {
    return literal(Set.of(literals));
  }

  /** Any integer the policy format can express. */
  public static ValueRule integer() {
    return new ValueRule(ValueKind.INTEGER, Set.of(), OptionalLong.empty(), OptionalLong.empty(), false);
  }

  /** Free text, never read as a path; see {@link ValueKind#STRING}. */
  public static ValueRule string() {
    return new ValueRule(ValueKind.STRING, Set.of(), OptionalLong.empty(), OptionalLong.empty(), false);
  }

  /** A sed script that only selects and prints; see {@link ValueKind#SED_SCRIPT}. */
  public static ValueRule sedScript() {
    return new ValueRule(ValueKind.SED_SCRIPT, Set.of(), OptionalLong.empty(), OptionalLong.empty(), false);
  }

  /** An integer in {@code [min, max]}. */
  public static ValueRule integer(long min, long max) {
    return new ValueRule(ValueKind.INTEGER, Set.of(), OptionalLong.of(min), OptionalLong.of(max), false);
  }
}
