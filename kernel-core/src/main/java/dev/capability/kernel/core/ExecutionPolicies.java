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
import java.util.LinkedHashMap;
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
  private static final int MAX_PARSED_FILES = 16;

  /**
   * The policy last parsed from each file, with the exact text it came from. Parsing and
   * validating (which runs every example in the policy) costs milliseconds, and a server reads
   * the same file for every request; the file's checks and the read still happen on every load,
   * and only text equal to what was validated reuses its result. Least recently used first out.
   */
  private static final Map<String, ParsedFile> PARSED = new LinkedHashMap<>(MAX_PARSED_FILES, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, ParsedFile> eldest) {
      return size() > MAX_PARSED_FILES;
    }
  };

  private record ParsedFile(String json, LoadedPolicy policy) {}

  /**
   * Loads the policy file at {@code file}. Before a byte is parsed, the path must be absolute and
   * canonical, outside {@code repository}, a regular file with one link, owned by this process's
   * user, not group- or world-writable, under directories no other user can change, readable,
   * and at most 1 MiB. The checks and the read run on every call; text equal to what was last
   * parsed from the same path gives back the policy validated then.
   *
   * @param repository the target repository, which must not contain the file; null when there is none
   * @return the policy, with the file's path as its source
   */
  public static LoadedPolicy load(Path file, @Nullable Path repository) {
    String json = PolicyFileReader.read(file, Optional.ofNullable(repository));
    String source = file.toString();
    synchronized (PARSED) {
      ParsedFile parsed = PARSED.get(source);
      if (parsed != null && parsed.json().equals(json)) {
        return parsed.policy();
      }
    }
    LoadedPolicy policy = parse(json, source);
    synchronized (PARSED) {
      PARSED.put(source, new ParsedFile(json, policy));
    }
    return policy;
  }

  /**
   * The text of an operator's file that is as trusted as a policy, because it too decides what
   * runs (for example an evaluation configuration, which names commands), read with exactly the
   * checks of {@link #load} and nothing parsed.
   *
   * @param repository the target repository, which must not contain the file; null when there is none
   * @param what what the file is, naming it in the messages, for example {@code evaluation configuration}
   * @throws PolicyException with the code of the first check the file failed ({@code POLICY_NOT_OWNED}, ...)
   */
  public static String readOperatorFile(Path file, @Nullable Path repository, String what) {
    return PolicyFileReader.read(file, Optional.ofNullable(repository), what);
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
