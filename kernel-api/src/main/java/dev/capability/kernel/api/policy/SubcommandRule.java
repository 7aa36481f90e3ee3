package dev.capability.kernel.api.policy;

import java.util.Objects;

/**
 * One allowed subcommand, for example {@code status} of {@code git}, with the arguments it
 * accepts after its name.
 *
 * @param arguments the rules for the arguments after the subcommand's name
 * @param examples argv arrays this subcommand must allow and the policy must refuse
 */
public record SubcommandRule(ArgumentRules arguments, PolicyExamples examples) {

  public SubcommandRule {
    Objects.requireNonNull(arguments, "arguments");
    Objects.requireNonNull(examples, "examples");
  }

  /** A subcommand accepting {@code arguments}, without examples. */
  public static SubcommandRule of(ArgumentRules arguments) {
    return new SubcommandRule(arguments, PolicyExamples.none());
  }
}
