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
 * the host has), the policy's fixed values, and the request's own variables that
 * {@link RequestEnvironmentChecks} allowed, and nothing else. A validated policy keeps the three
 * sets of names apart.
 */
public final class EnvironmentSanitizer {

  /**
   * The environment a command gets.
   *
   * @param variables every variable the command gets, by name
   * @param inheritedNames names taken from the host, sorted
   * @param setNames names with the policy's fixed values, sorted
   * @param requestedNames names with values given by the request, sorted
   * @param acceptedNames inherited or set names on the deny list that the operator accepted, sorted
   */
  public record SanitizedEnvironment(
      Map<String, String> variables, List<String> inheritedNames, List<String> setNames, List<String> requestedNames,
      List<String> acceptedNames) {
    public SanitizedEnvironment {
      variables = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(variables, "variables")));
      inheritedNames = List.copyOf(inheritedNames);
      setNames = List.copyOf(setNames);
      requestedNames = List.copyOf(requestedNames);
      acceptedNames = List.copyOf(acceptedNames);
    }
  }

  /**
   * The environment for a command under {@code policy} on a host with {@code host}.
   *
   * @throws PolicyException with code {@code POLICY_ENVIRONMENT_DENIED} when the policy names a
   *     variable on the built-in deny list that it does not accept, or that no policy can accept; a
   *     validated policy never does, so this guards policies that skipped validation
   */
  public SanitizedEnvironment sanitize(ExecutionPolicy policy, Map<String, String> host) {
    return sanitize(policy, host, Map.of());
  }

  /**
   * The environment for a command under {@code policy} on a host with {@code host}, with the
   * request's variables {@code requested}, which {@link RequestEnvironmentChecks} has allowed.
   *
   * @throws PolicyException with code {@code POLICY_ENVIRONMENT_DENIED} as for {@link #sanitize(ExecutionPolicy, Map)}
   * @throws IllegalArgumentException when a requested name is not one the policy lets requests give
   */
  public SanitizedEnvironment sanitize(ExecutionPolicy policy, Map<String, String> host, Map<String, String> requested) {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(requested, "requested");
    Map<String, String> variables = new TreeMap<>();
    List<String> inherited = new ArrayList<>();
    for (String name : policy.inheritEnvironment()) {
      refuseDenied(name, false, policy);
      String value = host.get(name);
      if (value != null && !policy.setEnvironment().containsKey(name)) {
        variables.put(name, value);
        inherited.add(name);
      }
    }
    for (Map.Entry<String, String> fixed : policy.setEnvironment().entrySet()) {
      refuseDenied(fixed.getKey(), true, policy);
      variables.put(fixed.getKey(), fixed.getValue());
    }
    List<String> requestedNames = new ArrayList<>(new TreeMap<>(requested).keySet());
    for (String name : requestedNames) {
      if (!policy.requestEnvironment().contains(name) || variables.containsKey(name)
          || EnvironmentDenyList.requestReason(name).isPresent()) {
        throw new IllegalArgumentException(name + " is not a variable this policy lets requests give");
      }
      variables.put(name, requested.get(name));
    }
    List<String> accepted = variables.keySet().stream()
        .filter(name -> policy.acceptedDeniedEnvironment().contains(name) && EnvironmentDenyList.reason(name, true).isPresent())
        .toList();
    return new SanitizedEnvironment(
        variables, inherited, List.copyOf(policy.setEnvironment().keySet()), requestedNames, accepted);
  }

  private static void refuseDenied(String name, boolean setByOperator, ExecutionPolicy policy) {
    Optional<String> reason = EnvironmentDenyList.reason(name, setByOperator, policy.acceptedDeniedEnvironment());
    if (reason.isPresent()) {
      throw new PolicyException(POLICY_ENVIRONMENT_DENIED, reason.get());
    }
  }
}
