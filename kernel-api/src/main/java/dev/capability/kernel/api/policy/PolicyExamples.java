package dev.capability.kernel.api.policy;

import java.util.List;
import java.util.Objects;

/**
 * Argv arrays a rule must allow and must refuse, checked every time the policy is loaded. A
 * {@code match} example must be allowed by the rule that carries it (or a rule beneath it); a
 * {@code notMatch} example must be refused by the policy as a whole.
 *
 * @param match argv arrays, argv[0] included, that must be allowed
 * @param notMatch argv arrays, argv[0] included, that must be refused
 */
public record PolicyExamples(List<List<String>> match, List<List<String>> notMatch) {

  public PolicyExamples {
    match = copy(match, "match");
    notMatch = copy(notMatch, "notMatch");
  }

  /** No examples. */
  public static PolicyExamples none() {
    return new PolicyExamples(List.of(), List.of());
  }

  private static List<List<String>> copy(List<List<String>> examples, String name) {
    Objects.requireNonNull(examples, name);
    return examples.stream().map(argv -> List.copyOf(Objects.requireNonNull(argv, name + " element"))).toList();
  }
}
