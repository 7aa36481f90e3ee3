package dev.capability.kernel.api;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * Whether a command may run, and if not, which layer and rule said no.
 *
 * @param allowed true when every layer allowed the command
 * @param code stable code of the denial (for example {@code FLAG_NOT_ALLOWED}), or {@code ALLOWED}
 * @param layer the authority layer that decided, for example {@code operator} or {@code builtin}
 * @param rule the rule within that layer, for example {@code executables.git.subcommands.status}
 * @param argIndex index into argv of the argument that was refused, when one was
 * @param message what was refused and why, for a person
 */
public record Decision(
    boolean allowed, String code, String layer, String rule, OptionalInt argIndex, String message) {

  /** The code of an allowing decision. */
  public static final String ALLOWED = "ALLOWED";

  public Decision {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(layer, "layer");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(argIndex, "argIndex");
    Objects.requireNonNull(message, "message");
    if (allowed != ALLOWED.equals(code)) {
      throw new IllegalArgumentException("an allowing decision has code ALLOWED and only it: " + code);
    }
  }

  /** Allowed by {@code rule} of {@code layer}. */
  public static Decision allow(String layer, String rule) {
    return new Decision(true, ALLOWED, layer, rule, OptionalInt.empty(), "allowed by " + layer + " rule " + rule);
  }

  /** Denied by {@code rule} of {@code layer}, not pointing at one argument. */
  public static Decision deny(String code, String layer, String rule, String message) {
    return new Decision(false, code, layer, rule, OptionalInt.empty(), message);
  }

  /** Denied by {@code rule} of {@code layer} because of argv[{@code argIndex}]. */
  public static Decision deny(String code, String layer, String rule, int argIndex, String message) {
    return new Decision(false, code, layer, rule, OptionalInt.of(argIndex), message);
  }
}
