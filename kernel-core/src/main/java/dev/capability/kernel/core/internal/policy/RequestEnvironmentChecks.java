package dev.capability.kernel.core.internal.policy;

import static dev.capability.kernel.api.policy.PolicyCodes.ENVIRONMENT_DENIED;
import static dev.capability.kernel.api.policy.PolicyCodes.ENVIRONMENT_INVALID;
import static dev.capability.kernel.api.policy.PolicyCodes.ENVIRONMENT_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.LAYER_BUILTIN;
import static dev.capability.kernel.api.policy.PolicyCodes.LAYER_OPERATOR;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Decides the environment variables a request gives for one run: each must be well formed and
 * receivable (layer {@code builtin}), never one the kernel refuses to take from a request (layer
 * {@code builtin}), and listed in the policy's {@code environment.request} (layer
 * {@code operator}). The first variable at fault, in name order, is named; its value never is.
 */
public final class RequestEnvironmentChecks {
  private RequestEnvironmentChecks() {}

  static final String RULE_BUILTIN = "builtin.environment";
  static final String RULE_OPERATOR = "environment.request";

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

  /** The denial of {@code requested} under {@code policy}, or empty when every variable may be given. */
  public static Optional<Decision> refusal(ExecutionPolicy policy, Map<String, String> requested) {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(requested, "requested");
    for (Map.Entry<String, String> variable : requested.entrySet()) {
      String name = variable.getKey();
      if (!NAME.matcher(name).matches()) {
        return Optional.of(Decision.deny(ENVIRONMENT_INVALID, LAYER_BUILTIN, RULE_BUILTIN,
            "request environment variable " + Printable.quote(name) + " is not a name ([A-Za-z_][A-Za-z0-9_]*)"));
      }
      int bad = Characters.firstUnencodable(variable.getValue());
      if (bad >= 0) {
        return Optional.of(Decision.deny(ENVIRONMENT_INVALID, LAYER_BUILTIN, RULE_BUILTIN,
            "the value of request environment variable " + name + " contains a NUL or a broken surrogate at index "
                + bad + ", which no process can receive"));
      }
      Optional<String> denied = EnvironmentDenyList.requestReason(name);
      if (denied.isPresent()) {
        return Optional.of(Decision.deny(ENVIRONMENT_DENIED, LAYER_BUILTIN, RULE_BUILTIN,
            "request environment variable " + denied.get()));
      }
      if (!policy.requestEnvironment().contains(name)) {
        return Optional.of(Decision.deny(ENVIRONMENT_NOT_ALLOWED, LAYER_OPERATOR, RULE_OPERATOR,
            "request environment variable " + name + " is not listed in the policy's environment.request "
                + policy.requestEnvironment()));
      }
    }
    return Optional.empty();
  }
}
