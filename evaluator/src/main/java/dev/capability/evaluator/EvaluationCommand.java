package dev.capability.evaluator;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One evaluation command, run on every candidate through the kernel, which decides it under the
 * operator's policy like any other command.
 *
 * @param name how the report names it; the command string or the argv joined with spaces unless the configuration gives a name
 * @param argv the command, already split (a configured string is split shell-free when it is loaded)
 * @param timeout a wall-clock bound shorter than the policy's; null for the policy's
 * @param maxOutputBytes a per-stream output bound smaller than the policy's; null for the policy's
 */
public record EvaluationCommand(String name, List<String> argv, @Nullable Duration timeout, @Nullable Long maxOutputBytes) {
  public EvaluationCommand {
    Objects.requireNonNull(name, "name");
    argv = List.copyOf(Objects.requireNonNull(argv, "argv"));
    if (name.isBlank()) {
      throw new IllegalArgumentException("a command's name must not be blank");
    }
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("a command's argv must not be empty");
    }
    if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
      throw new IllegalArgumentException("a command's timeout must be positive, was " + timeout);
    }
    if (maxOutputBytes != null && maxOutputBytes <= 0) {
      throw new IllegalArgumentException("a command's maxOutputBytes must be positive, was " + maxOutputBytes);
    }
  }
}
