package dev.capability.evaluator;

import dev.capability.kernel.api.backend.IsolationCapability;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * An evaluation's configuration, as {@link EvaluationConfigs#load} read it from an operator's file
 * (see {@code docs/schemas/evaluation-config.schema.json}). It names commands that will run, so it
 * is as trusted as the operator policy and read with the same checks.
 *
 * @param source the configuration file
 * @param sha256 the SHA-256 of the file's bytes, as {@code sha256:<hex>}
 * @param repository the repository whose commits are evaluated, absolute and canonical
 * @param policy the operator policy file every command is decided under
 * @param outputDirectory where the worktrees, logs and reports go; outside the repository
 * @param candidates the candidates, in the report's column order, names unique
 * @param baseline the name of the candidate the others are compared with; null when there is none
 * @param commands the commands, in the report's row order, names unique
 * @param backend the backend every command must run on; null to let the kernel pick the strongest that fits
 * @param requiredCapabilities isolation capabilities the backend must supply, on top of the policy's
 */
public record EvaluationConfig(
    Path source,
    String sha256,
    Path repository,
    Path policy,
    Path outputDirectory,
    List<Candidate> candidates,
    @Nullable String baseline,
    List<EvaluationCommand> commands,
    @Nullable String backend,
    Set<IsolationCapability> requiredCapabilities) {

  public EvaluationConfig {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(sha256, "sha256");
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(outputDirectory, "outputDirectory");
    candidates = List.copyOf(candidates);
    commands = List.copyOf(commands);
    requiredCapabilities = requiredCapabilities.isEmpty()
        ? Set.of() : Set.copyOf(EnumSet.copyOf(requiredCapabilities));
    if (candidates.isEmpty() || commands.isEmpty()) {
      throw new IllegalArgumentException("an evaluation needs at least one candidate and one command");
    }
    Set<String> names = new HashSet<>();
    candidates.forEach(c -> {
      if (!names.add(c.name())) {
        throw new IllegalArgumentException("two candidates are named '" + c.name() + "'");
      }
    });
    if (baseline != null && !names.contains(baseline)) {
      throw new IllegalArgumentException("the baseline '" + baseline + "' names no candidate");
    }
    Set<String> commandNames = new HashSet<>();
    commands.forEach(c -> {
      if (!commandNames.add(c.name())) {
        throw new IllegalArgumentException("two commands are named '" + c.name() + "'");
      }
    });
  }
}
