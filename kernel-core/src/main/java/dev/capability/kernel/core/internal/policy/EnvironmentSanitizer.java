package dev.capability.kernel.core.internal.policy;

import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_ENVIRONMENT_DENIED;

import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Builds the complete environment of a command: the host variables the policy inherits (those
 * the host has) plus the policy's fixed values, and nothing else. A fixed value wins over an
 * inherited one of the same name.
 */
public final class EnvironmentSanitizer {

  /**
   * The environment a command gets.
   *
   * @param variables every variable the command gets, by name
   * @param inheritedNames names taken from the host, sorted
   * @param setNames names with the policy's fixed values, sorted
   */
  public record SanitizedEnvironment(Map<String, String> variables, List<String> inheritedNames, List<String> setNames) {
    public SanitizedEnvironment {
      variables = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(variables, "variables")));
      inheritedNames = List.copyOf(inheritedNames);
      setNames = List.copyOf(setNames);
    }
  }

  /**
   * The environment for a command under {@code policy} on a host with {@code host}.
   *
   * @throws PolicyException with code {@code POLICY_ENVIRONMENT_DENIED} when the policy names a
   *     variable on the built-in deny list; a validated policy never does, so this guards policies
   *     that skipped validation
   */
  public SanitizedEnvironment sanitize(ExecutionPolicy policy, Map<String, String> host) {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(host, "host");
    Map<String, String> variables = new TreeMap<>();
    List<String> inherited = new ArrayList<>();
    for (String name : policy.inheritEnvironment()) {
      refuseDenied(name, false);
      String value = host.get(name);
      if (value != null && !policy.setEnvironment().containsKey(name)) {
        variables.put(name, value);
        inherited.add(name);
      }
    }
    for (Map.Entry<String, String> fixed : policy.setEnvironment().entrySet()) {
      refuseDenied(fixed.getKey(), true);
      variables.put(fixed.getKey(), fixed.getValue());
    }
    return new SanitizedEnvironment(variables, inherited, List.copyOf(policy.setEnvironment().keySet()));
  }

  private static void refuseDenied(String name, boolean setByOperator) {
    Optional<String> reason = EnvironmentDenyList.reason(name, setByOperator);
    if (reason.isPresent()) {
      throw new PolicyException(POLICY_ENVIRONMENT_DENIED, reason.get());
    }
  }
}
