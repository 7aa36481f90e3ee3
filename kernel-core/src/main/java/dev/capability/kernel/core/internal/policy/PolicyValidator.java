package dev.capability.kernel.core.internal.policy;

import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_ENVIRONMENT_DENIED;
import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_EXAMPLE_FAILED;
import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_INVALID;
import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_RULE_NEVER_ALLOWS;
import static dev.capability.kernel.core.internal.policy.JsonPointers.element;
import static dev.capability.kernel.core.internal.policy.JsonPointers.member;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.DoubleDashMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.FlagRule;
import dev.capability.kernel.api.policy.KeyValueMode;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.OptionSyntax;
import dev.capability.kernel.api.policy.PolicyExamples;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.api.policy.SubcommandRule;
import dev.capability.kernel.api.policy.ToolConfigurationPin;
import dev.capability.kernel.api.policy.ValueRule;
import dev.capability.kernel.core.internal.authority.GlobPattern;
import dev.capability.kernel.core.internal.authority.RepositoryPaths;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Checks everything about a policy that its types alone cannot: names and paths are well formed,
 * bounds are in range, no two rules claim one executable, every rule can allow something, the
 * environment stays off the deny list, and every example is decided as it says. A policy from a
 * file and one built in code go through exactly these checks. Problems are reported with the JSON
 * pointer of the offending member, which is the same for both.
 */
public final class PolicyValidator {
  private PolicyValidator() {}

  /** The longest wall-clock bound a policy may set. */
  public static final Duration MAX_TIMEOUT = Duration.ofHours(24);

  /** The largest per-stream output bound a policy may set: 1 GiB, which an array can hold. */
  public static final long MAX_OUTPUT_BYTES = 1L << 30;

  /** The largest {@code maxFileBytes} a policy may set: 1 PiB. */
  public static final long MAX_FILE_BYTES = 1L << 50;

  /** The largest {@code maxWriteBytes} a policy may set: 1 PiB. */
  public static final long MAX_WRITE_BYTES = 1L << 50;

  /** Integer bounds must be exactly representable in JSON numbers (IEEE-754 doubles). */
  static final long MAX_SAFE_INTEGER = (1L << 53) - 1;

  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_+-]{0,63}");
  private static final Pattern SUBCOMMAND = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_:+-]{0,63}");
  private static final Pattern ENVIRONMENT_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
  private static final Pattern FLAG = Pattern.compile("-[^\\s]{1,127}");
  private static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");

  /**
   * Validates {@code policy}.
   *
   * @throws PolicyException {@code POLICY_INVALID}, {@code POLICY_ENVIRONMENT_DENIED},
   *     {@code POLICY_RULE_NEVER_ALLOWS} or {@code POLICY_EXAMPLE_FAILED}, naming the JSON pointer
   *     of the problem
   */
  public static void validate(ExecutionPolicy policy) {
    validateLimits(policy);
    validateEgress(policy);
    validateWriteScopes(policy);
    validateProtectedPaths(policy);
    validateAcceptedDeniedEnvironment(policy);
    validateEnvironment(policy);
    validateRequestEnvironment(policy);
    validateExecutables(policy);
    checkExamples(policy);
  }

  private static void validateLimits(ExecutionPolicy policy) {
    Duration timeout = policy.timeout();
    if (timeout.isNegative() || timeout.isZero() || timeout.compareTo(MAX_TIMEOUT) > 0 || timeout.toNanos() % 1_000_000 != 0) {
      throw invalid("/timeoutMillis", "the timeout must be a whole number of milliseconds between 1 ms and "
          + MAX_TIMEOUT.toHours() + " h, was " + timeout);
    }
    if (policy.maxOutputBytes() < 1 || policy.maxOutputBytes() > MAX_OUTPUT_BYTES) {
      throw invalid("/maxOutputBytes", "must be between 1 and " + MAX_OUTPUT_BYTES + ", was " + policy.maxOutputBytes());
    }
    if (policy.maxFileBytes() < 1 || policy.maxFileBytes() > MAX_FILE_BYTES) {
      throw invalid("/maxFileBytes", "must be between 1 and " + MAX_FILE_BYTES + ", was " + policy.maxFileBytes());
    }
    if (policy.maxWriteBytes() < 1 || policy.maxWriteBytes() > MAX_WRITE_BYTES) {
      throw invalid("/maxWriteBytes", "must be between 1 and " + MAX_WRITE_BYTES + ", was " + policy.maxWriteBytes());
    }
  }

  /** Egress destinations are what the proxy of filtered network enforces; under any other network they would be ignored. */
  private static void validateEgress(ExecutionPolicy policy) {
    if (policy.network() != NetworkMode.FILTERED
        && (!policy.egressAllowed().isEmpty() || !policy.egressPrivateAddressNames().isEmpty())) {
      throw invalid("/egress", "an egress rule applies only to \"network\": \"filtered\", and the network is "
          + Printable.quote(PolicyNormalForm.jsonName(policy.network())));
    }
  }

  private static void validateWriteScopes(ExecutionPolicy policy) {
    List<String> scopes = policy.writeScopes();
    if (policy.projectWrites() == ProjectWriteMode.READ_ONLY && !scopes.isEmpty()) {
      throw invalid("/writeScopes", "write scopes mean nothing when project writes are read-only");
    }
    if (policy.projectWrites() == ProjectWriteMode.SCOPED && scopes.isEmpty()) {
      throw invalid("/writeScopes", "scoped project writes need at least one write scope");
    }
    requireGlobs(scopes, "/writeScopes", GlobPattern::writeScope, "write scope");
  }

  private static void validateProtectedPaths(ExecutionPolicy policy) {
    requireGlobs(policy.protectedPaths(), "/protectedPaths", GlobPattern::protectedPath, "protected path");
  }

  /** Compiles each of {@code patterns} and refuses duplicates, reporting the pointer of the first problem. */
  private static void requireGlobs(List<String> patterns, String pointer, Function<String, GlobPattern> compiler, String what) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < patterns.size(); i++) {
      String elementPointer = element(pointer, i);
      try {
        compiler.apply(patterns.get(i));
      } catch (AuthorityException e) {
        throw invalid(elementPointer, e.getMessage());
      }
      if (!seen.add(patterns.get(i))) {
        throw invalid(elementPointer, what + " " + Printable.quote(patterns.get(i)) + " is listed twice");
      }
    }
  }

  private static void validateToolConfiguration(ExecutableRule rule, String pointer) {
    for (Map.Entry<String, ToolConfigurationPin> file : rule.toolConfiguration().entrySet()) {
      String filePointer = member(member(pointer, "toolConfiguration"), file.getKey());
      Optional<String> problem = RepositoryPaths.problem(file.getKey());
      if (problem.isPresent()) {
        throw invalid(filePointer, "tool configuration file " + Printable.quote(file.getKey()) + " " + problem.get());
      }
      Optional<String> sha256 = file.getValue().sha256();
      if (sha256.isPresent() && !SHA256.matcher(sha256.get()).matches()) {
        throw invalid(filePointer, "a pin is \"recorded\", \"absent\" or 64 lower-case hex digits");
      }
    }
  }

  private static void validateEnvironment(ExecutionPolicy policy) {
    for (String name : policy.inheritEnvironment()) {
      String pointer = "/environment/inherit";
      requireEnvironmentName(name, pointer);
      Optional<String> denied = EnvironmentDenyList.reason(name, false, policy.acceptedDeniedEnvironment());
      if (denied.isPresent()) {
        throw new PolicyException(POLICY_ENVIRONMENT_DENIED, "at " + JsonPointers.show(pointer) + ": " + denied.get());
      }
      if (policy.setEnvironment().containsKey(name)) {
        throw invalid(pointer, name + " is both inherited and set; keep one");
      }
    }
    for (Map.Entry<String, String> fixed : policy.setEnvironment().entrySet()) {
      String pointer = member("/environment/set", fixed.getKey());
      requireEnvironmentName(fixed.getKey(), pointer);
      Optional<String> denied = EnvironmentDenyList.reason(fixed.getKey(), true, policy.acceptedDeniedEnvironment());
      if (denied.isPresent()) {
        throw new PolicyException(POLICY_ENVIRONMENT_DENIED, "at " + JsonPointers.show(pointer) + ": " + denied.get());
      }
      if (Characters.firstUnencodable(fixed.getValue()) >= 0) {
        throw invalid(pointer, "the value contains a NUL or a broken surrogate");
      }
    }
  }

  private static void validateRequestEnvironment(ExecutionPolicy policy) {
    String pointer = "/environment/request";
    for (String name : policy.requestEnvironment()) {
      requireEnvironmentName(name, pointer);
      Optional<String> denied = EnvironmentDenyList.requestReason(name);
      if (denied.isPresent()) {
        throw new PolicyException(POLICY_ENVIRONMENT_DENIED, "at " + JsonPointers.show(pointer) + ": " + denied.get());
      }
      if (policy.inheritEnvironment().contains(name) || policy.setEnvironment().containsKey(name)) {
        throw invalid(pointer, name + " is both " + (policy.inheritEnvironment().contains(name) ? "inherited" : "set")
            + " and given by requests; keep one");
      }
    }
  }

  private static void validateAcceptedDeniedEnvironment(ExecutionPolicy policy) {
    String pointer = "/environment/acceptDenied";
    for (String name : policy.acceptedDeniedEnvironment()) {
      requireEnvironmentName(name, pointer);
      Optional<String> refused = EnvironmentDenyList.acceptReason(name);
      if (refused.isPresent()) {
        throw new PolicyException(POLICY_ENVIRONMENT_DENIED, "at " + JsonPointers.show(pointer) + ": " + refused.get());
      }
      if (!EnvironmentDenyList.acceptable(name)) {
        throw invalid(pointer, name + " is not on the deny list; pass it with inherit or set alone");
      }
      if (!policy.inheritEnvironment().contains(name) && !policy.setEnvironment().containsKey(name)) {
        throw invalid(pointer, name + " is accepted but neither inherited nor set; list it in inherit or set too");
      }
    }
  }

  private static void requireEnvironmentName(String name, String pointer) {
    if (!ENVIRONMENT_NAME.matcher(name).matches()) {
      throw invalid(pointer, Printable.quote(name) + " is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)");
    }
  }

  private static void validateExecutables(ExecutionPolicy policy) {
    Map<String, String> claimedBy = new HashMap<>();
    for (ExecutableRule rule : policy.executables()) {
      String pointer = member("/executables", rule.id());
      if (!ID.matcher(rule.id()).matches()) {
        throw invalid(pointer, "the rule id " + Printable.quote(rule.id()) + " must match " + ID.pattern());
      }
      String claim;
      if (rule.name().isPresent()) {
        String name = rule.name().get();
        if (!ID.matcher(name).matches()) {
          throw invalid(member(pointer, "name"), Printable.quote(name)
              + " is not a bare name: letters, digits, _, + and -, without path separator or extension");
        }
        claim = "name " + name;
      } else {
        Path path = rule.path().orElseThrow();
        validateExecutablePath(path, member(pointer, "path"));
        claim = "path " + path;
      }
      String other = claimedBy.putIfAbsent(claim, rule.id());
      if (other != null) {
        throw invalid(pointer, "rules " + other + " and " + rule.id() + " both match " + claim);
      }
      if (rule.sha256().isPresent() && !SHA256.matcher(rule.sha256().get()).matches()) {
        throw invalid(member(pointer, "sha256"), "must be 64 lower-case hex digits");
      }
      String program = rule.name().orElseGet(() -> rule.path().orElseThrow().toString());
      Optional<Decision> alwaysRefused = BuiltinChecks.refusalOfEveryArgvOf(program);
      if (alwaysRefused.isPresent()) {
        throw neverAllows(pointer, "the built-in checks refuse every command it names: " + alwaysRefused.get().message());
      }
      List<List<String>> exact = rule.exactArguments();
      for (int i = 0; i < exact.size(); i++) {
        String exactPointer = element(member(pointer, "exact"), i);
        requireEncodable(exact.get(i), exactPointer);
        requireNotBuiltinRefused(withProgram(program, exact.get(i)), exactPointer);
      }
      if (rule.arguments().isPresent()) {
        validateArguments(rule.arguments().get(), member(pointer, "arguments"), policy.projectWrites());
      }
      validateExampleShapes(rule.examples(), pointer);
      validateToolConfiguration(rule, pointer);
      CodeRunningTools.requireAccepted(rule, program, pointer);
    }
  }

  private static void validateExecutablePath(Path path, String pointer) {
    String text = path.toString();
    if (!path.isAbsolute() || !path.normalize().equals(path) || path.getNameCount() == 0) {
      throw invalid(pointer, Printable.quote(text) + " must be an absolute, normalized path to a file");
    }
    if (Characters.firstUnsafe(text) >= 0) {
      throw invalid(pointer, Printable.quote(text) + " contains a control or invisible character");
    }
  }

  private static List<String> withProgram(String program, List<String> arguments) {
    List<String> argv = new ArrayList<>(arguments.size() + 1);
    argv.add(program);
    argv.addAll(arguments);
    return argv;
  }

  private static void requireNotBuiltinRefused(List<String> argv, String pointer) {
    Optional<Decision> refusal = BuiltinChecks.refusal(argv);
    if (refusal.isPresent()) {
      throw neverAllows(pointer, Printable.argv(argv) + " is always refused by " + refusal.get().layer() + " rule "
          + refusal.get().rule() + " (" + refusal.get().code() + "): " + refusal.get().message());
    }
  }

  private static void validateArguments(ArgumentRules rules, String pointer, ProjectWriteMode projectWrites) {
    for (Map.Entry<String, FlagRule> flag : rules.flags().entrySet()) {
      String name = flag.getKey();
      String flagPointer = member(member(pointer, "flags"), name);
      if (!FLAG.matcher(name).matches() || name.equals("--") || Characters.firstUnsafe(name) >= 0
          || name.startsWith("--") && name.indexOf('=') >= 0) {
        throw invalid(flagPointer, Printable.quote(name)
            + " is not a flag: it starts with -, is not -- itself, has no spaces or control characters,"
            + " and a flag starting with -- has no =");
      }
      if (flag.getValue().value().isPresent()) {
        validateValue(flag.getValue().value().get(), member(flagPointer, "value"), projectWrites);
      }
      if (rules.syntax() == OptionSyntax.FIND) {
        Optional<String> problem = FindPrimaries.declarationProblem(name, flag.getValue().value().isPresent());
        if (problem.isPresent()) {
          throw invalid(flagPointer, problem.get());
        }
      }
      if (flag.getValue().arguments().isPresent()) {
        validateArguments(flag.getValue().arguments().get(), member(flagPointer, "arguments"), projectWrites);
      }
    }
    for (Map.Entry<String, ValueRule> keyValue : rules.keyValues().entrySet()) {
      String keyPointer = member(member(pointer, "keyValues"), keyValue.getKey());
      if (!KEY.matcher(keyValue.getKey()).matches()) {
        throw invalid(keyPointer, Printable.quote(keyValue.getKey()) + " is not a key of a NAME=value operand; it must match "
            + KEY.pattern());
      }
      validateValue(keyValue.getValue(), keyPointer, projectWrites);
    }
    for (Map.Entry<String, SubcommandRule> subcommand : rules.subcommands().entrySet()) {
      String subPointer = member(member(pointer, "subcommands"), subcommand.getKey());
      if (!SUBCOMMAND.matcher(subcommand.getKey()).matches()) {
        throw invalid(subPointer, Printable.quote(subcommand.getKey()) + " is not a subcommand name; it must match "
            + SUBCOMMAND.pattern());
      }
      validateArguments(subcommand.getValue().arguments(), subPointer, projectWrites);
      validateExampleShapes(subcommand.getValue().examples(), subPointer);
    }
    if (rules.operands().isPresent()) {
      validateOperands(rules, member(pointer, "operands"), projectWrites);
    }
  }

  /** Refuses operand rules that no argv can ever satisfy, then checks their value rule. */
  private static void validateOperands(ArgumentRules rules, String pointer, ProjectWriteMode projectWrites) {
    OperandRule operands = rules.operands().orElseThrow();
    if (operands.maxCount().isPresent() && operands.maxCount().getAsInt() == 0) {
      throw neverAllows(member(pointer, "maxCount"), "maxCount 0 allows no operand; leave operands out instead");
    }
    int leading = operands.leading().size();
    boolean valueBeyondFirst = leading > 0 || operands.maxCount().isEmpty() || operands.maxCount().getAsInt() > 1;
    validateOperandValue(operands.value(), rules, valueBeyondFirst, pointer, projectWrites);
    for (int i = 0; i < leading; i++) {
      validateOperandValue(operands.leading().get(i), rules, i > 0, element(member(pointer, "leading"), i), projectWrites);
    }
  }

  /**
   * Refuses literals the program can never receive as an operand where {@code value} applies: a
   * flag's spelling or {@code --}, and a {@code NAME=value} where such operands are refused or
   * typed.
   *
   * @param beyondFirst whether {@code value} applies to some operand after the first, which an
   *     options-first program reads as an operand whatever it starts with
   */
  private static void validateOperandValue(
      ValueRule value, ArgumentRules rules, boolean beyondFirst, String pointer, ProjectWriteMode projectWrites) {
    boolean dashReachable = switch (rules.syntax()) {
      case GETOPT, TAR -> rules.doubleDash() != DoubleDashMode.FORBIDDEN;
      case OPTIONS_FIRST -> rules.doubleDash() != DoubleDashMode.FORBIDDEN || beyondFirst;
      case FIND -> false;
    };
    for (String literal : value.literals()) {
      if (!dashReachable && (literal.equals("--") || literal.startsWith("-") && literal.length() > 1)) {
        throw neverAllows(member(pointer, "values"), "literal " + Printable.quote(literal)
            + " is read as " + (literal.equals("--") ? "the end of options" : "a flag")
            + (rules.syntax() == OptionSyntax.FIND
                ? ", which find never reads as a starting point"
                : " and can be an operand only after --, which doubleDash forbids here"));
      }
      if (literal.indexOf('=') >= 0 && rules.keyValueOperands() != KeyValueMode.OPERAND) {
        throw neverAllows(member(pointer, "values"), "literal " + Printable.quote(literal)
            + " holds =, so it is read as a NAME=value operand, which keyValueOperands "
            + PolicyNormalForm.jsonName(rules.keyValueOperands()) + " decides instead");
      }
    }
    validateValue(value, pointer, projectWrites);
  }

  private static void validateValue(ValueRule rule, String pointer, ProjectWriteMode projectWrites) {
    if (rule.write() && projectWrites == ProjectWriteMode.READ_ONLY) {
      throw neverAllows(member(pointer, "write"), "a write target is always refused when projectWrites is \"read-only\"");
    }
    for (String literal : rule.literals()) {
      if (Characters.firstUnsafe(literal) >= 0) {
        throw invalid(member(pointer, "values"), "literal " + Printable.quote(literal) + " contains a control or invisible character");
      }
    }
    if (rule.min().isPresent() && !isSafeInteger(rule.min().getAsLong())
        || rule.max().isPresent() && !isSafeInteger(rule.max().getAsLong())) {
      throw invalid(pointer, "integer bounds must lie within +-" + MAX_SAFE_INTEGER);
    }
  }

  private static boolean isSafeInteger(long value) {
    return value >= -MAX_SAFE_INTEGER && value <= MAX_SAFE_INTEGER;
  }

  private static void validateExampleShapes(PolicyExamples examples, String pointer) {
    requireExampleShapes(examples.match(), member(pointer, "match"));
    requireExampleShapes(examples.notMatch(), member(pointer, "notMatch"));
  }

  private static void requireExampleShapes(List<List<String>> examples, String pointer) {
    for (int i = 0; i < examples.size(); i++) {
      if (examples.get(i).isEmpty()) {
        throw invalid(element(pointer, i), "an example is a non-empty argv array");
      }
      requireEncodable(examples.get(i), element(pointer, i));
    }
  }

  private static void requireEncodable(List<String> arguments, String pointer) {
    for (int i = 0; i < arguments.size(); i++) {
      if (Characters.firstUnencodable(arguments.get(i)) >= 0) {
        throw invalid(element(pointer, i), "contains a NUL or a broken surrogate");
      }
    }
  }

  private static void checkExamples(ExecutionPolicy policy) {
    CommandAuthorizer authorizer = new CommandAuthorizer();
    for (ExecutableRule rule : policy.executables()) {
      String pointer = member("/executables", rule.id());
      String rulePath = "executables." + rule.id();
      checkExamples(authorizer, policy, rule.examples(), pointer, rulePath);
      if (rule.arguments().isPresent()) {
        checkSubcommandExamples(authorizer, policy, rule.arguments().get(), member(pointer, "arguments"), rulePath);
      }
    }
  }

  private static void checkSubcommandExamples(
      CommandAuthorizer authorizer, ExecutionPolicy policy, ArgumentRules rules, String pointer, String rulePath) {
    for (Map.Entry<String, FlagRule> flag : rules.flags().entrySet()) {
      if (flag.getValue().arguments().isPresent()) {
        checkSubcommandExamples(authorizer, policy, flag.getValue().arguments().get(),
            member(member(member(pointer, "flags"), flag.getKey()), "arguments"), rulePath + ".flags." + flag.getKey());
      }
    }
    for (Map.Entry<String, SubcommandRule> subcommand : rules.subcommands().entrySet()) {
      String subPointer = member(member(pointer, "subcommands"), subcommand.getKey());
      String subPath = rulePath + ".subcommands." + subcommand.getKey();
      checkExamples(authorizer, policy, subcommand.getValue().examples(), subPointer, subPath);
      checkSubcommandExamples(authorizer, policy, subcommand.getValue().arguments(), subPointer, subPath);
    }
  }

  private static void checkExamples(
      CommandAuthorizer authorizer, ExecutionPolicy policy, PolicyExamples examples, String pointer, String rulePath) {
    List<List<String>> match = examples.match();
    for (int i = 0; i < match.size(); i++) {
      requireNotBuiltinRefused(match.get(i), element(member(pointer, "match"), i));
      Decision decision = authorizer.authorize(policy, match.get(i), Optional.empty()).decision();
      if (!decision.allowed() || !isWithin(decision.rule(), rulePath)) {
        throw exampleFailed(element(member(pointer, "match"), i), match.get(i), "be allowed by " + rulePath, decision);
      }
    }
    List<List<String>> notMatch = examples.notMatch();
    for (int i = 0; i < notMatch.size(); i++) {
      Decision decision = authorizer.authorize(policy, notMatch.get(i), Optional.empty()).decision();
      if (decision.allowed()) {
        throw exampleFailed(element(member(pointer, "notMatch"), i), notMatch.get(i), "be refused", decision);
      }
    }
  }

  /** Whether {@code decided} is {@code rulePath} or a rule beneath it. */
  private static boolean isWithin(String decided, String rulePath) {
    return decided.equals(rulePath) || decided.startsWith(rulePath + ".") || decided.startsWith(rulePath + "[");
  }

  private static PolicyException exampleFailed(String pointer, List<String> argv, String expected, Decision decision) {
    String decidedBy = decision.allowed()
        ? "it was allowed by " + decision.layer() + " rule " + decision.rule()
        : "it was refused with " + decision.code() + " by " + decision.layer() + " rule " + decision.rule()
            + (decision.argIndex().isPresent() ? " at argv[" + decision.argIndex().getAsInt() + "]" : "")
            + ": " + decision.message();
    return new PolicyException(POLICY_EXAMPLE_FAILED,
        "example " + JsonPointers.show(pointer) + " " + Printable.argv(argv) + " should " + expected + ", but " + decidedBy);
  }

  private static PolicyException neverAllows(String pointer, String message) {
    return new PolicyException(POLICY_RULE_NEVER_ALLOWS, "at " + JsonPointers.show(pointer) + ": this can never allow"
        + " anything, which is an error rather than silence: " + message);
  }

  private static PolicyException invalid(String pointer, String message) {
    return new PolicyException(POLICY_INVALID, "at " + JsonPointers.show(pointer) + ": " + message);
  }
}
