package dev.capability.kernel.core.internal.policy;

import static dev.capability.kernel.api.policy.PolicyCodes.ARGV_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.EXECUTABLE_NOT_ALLOWED;
import static dev.capability.kernel.api.policy.PolicyCodes.LAYER_OPERATOR;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.internal.authority.WriteTarget;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides whether an argv may run: the built-in checks first (layer {@code builtin}), then the
 * operator's policy (layer {@code operator}), which denies every executable no rule names.
 * Resolving and pinning the executable is not done here; an allowed argv names a rule that the
 * resolver then holds to its name, path and SHA-256.
 */
public final class CommandAuthorizer {

  /**
   * The decision and, when it allows, the executable rule that allowed it.
   *
   * @param decision the decision, naming the layer, rule and argv index that decided
   * @param rule the executable rule that allowed the argv; present exactly when it is allowed
   * @param writeTargets the path arguments the rule marks as written, in argv order; the effective
   *     authority decides them before launch. Empty when denied.
   */
  public record Authorization(Decision decision, Optional<ExecutableRule> rule, List<WriteTarget> writeTargets) {
    public Authorization {
      Objects.requireNonNull(decision, "decision");
      Objects.requireNonNull(rule, "rule");
      writeTargets = List.copyOf(Objects.requireNonNull(writeTargets, "writeTargets"));
      if (decision.allowed() != rule.isPresent()) {
        throw new IllegalArgumentException("an authorization carries a rule exactly when it allows");
      }
      if (!decision.allowed() && !writeTargets.isEmpty()) {
        throw new IllegalArgumentException("a denial has no write targets");
      }
    }

    static Authorization denied(Decision decision) {
      return new Authorization(decision, Optional.empty(), List.of());
    }
  }

  /**
   * Authorizes {@code argv} under {@code policy}.
   *
   * @param workspace when present, path operands and values must lie lexically inside it
   */
  public Authorization authorize(ExecutionPolicy policy, List<String> argv, Optional<Path> workspace) {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(argv, "argv");
    Objects.requireNonNull(workspace, "workspace");
    Optional<Decision> refusal = BuiltinChecks.refusal(argv);
    if (refusal.isPresent()) {
      return Authorization.denied(refusal.get());
    }
    String program = argv.get(0);
    List<ExecutableRule> matching = policy.executables().stream().filter(rule -> matches(rule, program)).toList();
    if (matching.size() != 1) {
      String why = matching.isEmpty()
          ? "no executable rule allows " + Printable.quote(program)
              + " (bare-name rules match only a name without path separator or extension)"
          : "more than one executable rule matches " + Printable.quote(program);
      return Authorization.denied(Decision.deny(EXECUTABLE_NOT_ALLOWED, LAYER_OPERATOR, "executables", 0, why));
    }
    ExecutableRule rule = matching.get(0);
    String rulePath = "executables." + rule.id();
    List<String> arguments = argv.subList(1, argv.size());
    int exact = rule.exactArguments().indexOf(arguments);
    if (exact >= 0) {
      return new Authorization(Decision.allow(LAYER_OPERATOR, rulePath + ".exact[" + exact + "]"), Optional.of(rule), List.of());
    }
    if (rule.arguments().isEmpty()) {
      return Authorization.denied(exactMismatch(rule, argv, rulePath));
    }
    List<WriteTarget> writeTargets = new ArrayList<>();
    Decision decision = ArgumentMatcher.check(rule.arguments().get(), argv, 1, rulePath, workspace, writeTargets);
    return decision.allowed() ? new Authorization(decision, Optional.of(rule), writeTargets) : Authorization.denied(decision);
  }

  /** Points at the first argument after the longest prefix some exact list shares with argv. */
  private static Decision exactMismatch(ExecutableRule rule, List<String> argv, String rulePath) {
    int shared = 0;
    for (List<String> exact : rule.exactArguments()) {
      int common = 0;
      while (common < exact.size() && 1 + common < argv.size() && exact.get(common).equals(argv.get(1 + common))) {
        common++;
      }
      shared = Math.max(shared, common);
    }
    int index = 1 + shared;
    String message = Printable.argv(argv) + " is not one of the exact argument lists of " + rulePath;
    return index < argv.size()
        ? Decision.deny(ARGV_NOT_ALLOWED, LAYER_OPERATOR, rulePath + ".exact", index, message + " (argv[" + index + "])")
        : Decision.deny(ARGV_NOT_ALLOWED, LAYER_OPERATOR, rulePath + ".exact", message + " (arguments are missing)");
  }

  private static boolean matches(ExecutableRule rule, String program) {
    if (rule.name().isPresent()) {
      return rule.name().get().equals(program) && isBareName(program);
    }
    Path path = rule.path().orElseThrow();
    return path.isAbsolute() && path.toString().equals(program);
  }

  /** No path separator of any platform and no extension: the name can only be looked up on PATH. */
  private static boolean isBareName(String program) {
    return program.indexOf('/') < 0 && program.indexOf('\\') < 0 && program.indexOf('.') < 0;
  }
}
