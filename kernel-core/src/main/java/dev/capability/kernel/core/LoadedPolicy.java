package dev.capability.kernel.core;

import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_INVALID;

import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.internal.policy.PolicyNormalForm;
import dev.capability.kernel.core.internal.policy.PolicyValidator;
import java.util.Objects;

/**
 * A validated policy with its hash and where it came from. Every instance holds a policy that
 * passed validation and the true hash of its normal form, however it was constructed.
 *
 * @param policy the policy
 * @param hash lower-case hex SHA-256 of the RFC 8785 canonical JSON of the policy's normal form
 * @param source where the policy came from: the file's path, {@code code}, or what the caller of
 *     {@link ExecutionPolicies#parse} named
 * @throws PolicyException when the policy is invalid or the hash is not its hash
 */
public record LoadedPolicy(ExecutionPolicy policy, String hash, String source) {

  public LoadedPolicy {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(source, "source");
    PolicyValidator.validate(policy);
    String actual = PolicyNormalForm.sha256(policy);
    if (!actual.equals(hash)) {
      throw new PolicyException(POLICY_INVALID, "the hash " + hash + " is not the policy's hash " + actual);
    }
  }
}
