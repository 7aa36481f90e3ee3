package dev.capability.kernel.core;

import dev.capability.kernel.api.Decision;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link CommandKernel#check} found: the argv, the decision, and when allowed, the
 * executable that would run and the backend that would run it.
 *
 * @param argv the argv as parsed; empty when the command string was refused
 * @param decision the decision, naming the layer and rule that denied
 * @param executablePath the canonical path of the executable, once resolved
 * @param executableSha256 its SHA-256, once resolved
 * @param backendId the backend that would launch it, once selected
 */
public record CheckResult(
    List<String> argv,
    Decision decision,
    Optional<String> executablePath,
    Optional<String> executableSha256,
    Optional<String> backendId) {

  public CheckResult {
    argv = List.copyOf(argv);
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(executablePath, "executablePath");
    Objects.requireNonNull(executableSha256, "executableSha256");
    Objects.requireNonNull(backendId, "backendId");
  }
}
