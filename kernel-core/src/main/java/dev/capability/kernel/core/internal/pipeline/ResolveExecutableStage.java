package dev.capability.kernel.core.internal.pipeline;

import static dev.capability.kernel.api.policy.PolicyCodes.EXECUTABLE_HASH_MISMATCH;
import static dev.capability.kernel.api.policy.PolicyCodes.EXECUTABLE_NOT_CANONICAL;
import static dev.capability.kernel.api.policy.PolicyCodes.EXECUTABLE_UNREADABLE;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.internal.exec.ExecutablePinner;
import dev.capability.kernel.core.internal.exec.ExecutableResolver;
import dev.capability.kernel.core.internal.exec.ExecutableTrust;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Stage 4: argv[0] to a canonical file, pinned by an open descriptor and hashed; a path rule must
 * name that canonical file exactly, the pinned file must be one only trusted users could have
 * written and no hard link into the repository ({@link ExecutableTrust}), and a SHA-256 pin must
 * match the bytes that will run.
 */
final class ResolveExecutableStage implements Stage {
  private final ExecutionPolicy policy;
  private final ExecutableResolver resolver;
  private final ExecutablePinner pinner;
  private final ExecutableTrust trust;

  ResolveExecutableStage(ExecutionPolicy policy, ExecutableResolver resolver, ExecutablePinner pinner, ExecutableTrust trust) {
    this.policy = policy;
    this.resolver = resolver;
    this.pinner = pinner;
    this.trust = trust;
  }

  @Override
  public void apply(ExecutionContext context) {
    String argv0 = context.argv.get(0);
    ExecutableResolver.Resolution resolution = resolver.resolve(
        argv0, context.environment.variables().get("PATH"), context.repository, policy.allowRepositoryExecutables());
    if (resolution.executable().isEmpty()) {
      context.deny(resolution.decision());
      return;
    }
    Path canonical = resolution.executable().get();
    if (argv0.indexOf('/') >= 0 && !canonical.toString().equals(argv0)) {
      context.deny(Decision.deny(EXECUTABLE_NOT_CANONICAL, "builtin", "executable.path", 0,
          "'" + argv0 + "' is not canonical (it resolves to " + canonical + "); name executables by their canonical path"));
      return;
    }
    try {
      context.pinned = pinner.pin(canonical);
    } catch (UncheckedIOException e) {
      context.deny(Decision.deny(EXECUTABLE_UNREADABLE, "builtin", "executable.hash", 0,
          "could not pin and hash " + canonical + ": " + e.getCause().getMessage()));
      return;
    }
    Optional<Decision> untrusted = trust.refusal(
        canonical, Path.of(context.pinned.executable().execPath()), context.repository, policy.allowRepositoryExecutables());
    if (untrusted.isPresent()) {
      context.deny(untrusted.get());
      return;
    }
    var pin = context.rule.flatMap(r -> r.sha256());
    String actual = context.pinned.executable().sha256();
    if (pin.isPresent() && !pin.get().equalsIgnoreCase(actual)) {
      String ruleName = context.rule.map(r -> "executables." + r.id() + ".sha256").orElse("executables.sha256");
      context.deny(Decision.deny(EXECUTABLE_HASH_MISMATCH, "operator", ruleName, 0,
          canonical + " has SHA-256 " + actual + " but the policy pins " + pin.get()));
    }
  }
}
