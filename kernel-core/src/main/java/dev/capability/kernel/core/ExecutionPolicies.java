package dev.capability.kernel.core;

import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_PATH_NOT_ABSOLUTE;
import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_PATH_UNSET;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.internal.policy.CommandAuthorizer;
import dev.capability.kernel.core.internal.policy.PolicyFileReader;
import dev.capability.kernel.core.internal.policy.PolicyJsonReader;
import dev.capability.kernel.core.internal.policy.PolicyNormalForm;
import dev.capability.kernel.core.internal.policy.PolicyValidator;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Loads, parses and validates execution policies. Every failure is a {@link PolicyException}
 * with a stable code; there is no fallback to a default or weaker policy, ever. The format and
 * every code are described in {@code docs/policy.md}.
 */
public final class ExecutionPolicies {
  private ExecutionPolicies() {}

  /** The environment variable that names the policy file for {@link #fromEnvironment}. */
  public static final String POLICY_PATH_VARIABLE = "CAPABILITY_EXECUTION_POLICY_PATH";

  /** The source of a policy built in code. */
  public static final String CODE_SOURCE = "code";

  private static final CommandAuthorizer AUTHORIZER = new CommandAuthorizer();

  /**
   * Loads the policy file at {@code file}. Before a byte is parsed, the path must be absolute and
   * canonical, outside {@code repository}, a regular file with one link, owned by this process's
   * user, not group- or world-writable, under directories no other user can change, readable,
   * and at most 1 MiB.
   *
   * @param repository the target repository, which must not contain the file; null when there is none
   * @return the policy, with the file's path as its source
   */
  public static LoadedPolicy load(Path file, @Nullable Path repository) {
    String json = PolicyFileReader.read(file, Optional.ofNullable(repository));
    return parse(json, file.toString());
  }

  /**
   * Loads the policy file named by {@value #POLICY_PATH_VARIABLE} in {@code environment}, as
   * {@link #load} does.
   *
   * @param repository the target repository, which must not contain the file; null when there is none
   * @throws PolicyException {@code POLICY_PATH_UNSET} when the variable is absent or empty
   */
  public static LoadedPolicy fromEnvironment(Map<String, String> environment, @Nullable Path repository) {
    Objects.requireNonNull(environment, "environment");
    String value = environment.get(POLICY_PATH_VARIABLE);
    if (value == null || value.isEmpty()) {
      throw new PolicyException(POLICY_PATH_UNSET, POLICY_PATH_VARIABLE + " is not set; it must name the policy file");
    }
    Path file;
    try {
      file = Path.of(value);
    } catch (InvalidPathException e) {
      throw new PolicyException(POLICY_PATH_NOT_ABSOLUTE, POLICY_PATH_VARIABLE + " is not a path: " + e.getReason(), e);
    }
    return load(file, repository);
  }

  /** Parses and validates policy JSON, with no file checks. */
  public static LoadedPolicy parse(String json, String source) {
    Objects.requireNonNull(json, "json");
    Objects.requireNonNull(source, "source");
    return of(PolicyJsonReader.read(json), source);
  }

  /** Validates a policy built in code, exactly as a file's policy is validated; its source is {@code code}. */
  public static LoadedPolicy of(ExecutionPolicy policy) {
    return of(policy, CODE_SOURCE);
  }

  /**
   * The normal form of {@code policy} as indented JSON: every default written out, sets sorted.
   * Parsing it gives back an equal policy with the same hash.
   */
  public static String toJson(ExecutionPolicy policy) {
    return PolicyNormalForm.json(Objects.requireNonNull(policy, "policy"));
  }

  private static LoadedPolicy of(ExecutionPolicy policy, String source) {
    Objects.requireNonNull(policy, "policy");
    PolicyValidator.validate(policy);
    return new LoadedPolicy(policy, PolicyNormalForm.sha256(policy), source);
  }

  /**
   * Decides {@code argv} under the built-in rules and {@code policy} alone, as the kernel's
   * authorize stage does, without resolving the executable or choosing a backend. For tools
   * that explain a policy; {@link CommandKernel#check} answers the whole question.
   *
   * @param workspace the directory that path operands must stay inside; null when there is none
   */
  public static Decision decide(LoadedPolicy policy, List<String> argv, @Nullable Path workspace) {
    return AUTHORIZER.authorize(policy.policy(), argv, Optional.ofNullable(workspace)).decision();
  }
}
