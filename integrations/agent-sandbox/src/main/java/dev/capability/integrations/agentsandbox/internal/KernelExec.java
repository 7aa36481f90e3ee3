package dev.capability.integrations.agentsandbox.internal;

import dev.capability.integrations.agentsandbox.KernelSandboxException;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ShellSyntaxException;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.CommandStrings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springaicommunity.sandbox.ExecResult;
import org.springaicommunity.sandbox.ExecSpec;
import org.springaicommunity.sandbox.TimeoutException;

/** One {@code Sandbox.exec}: the spec as a kernel request, and the kernel's outcome as the SPI's. */
public final class KernelExec {
  /**
   * The first element of a spec's command when it holds a shell command ({@code
   * ExecSpec.Builder.shellCommand}); the second is the command string.
   */
  static final String SHELL_COMMAND_MARKER = "__SHELL_COMMAND__";

  private KernelExec() {}

  /** Runs {@code spec} in {@code workDirectory} through {@code kernel}, on {@code backendId} when one is given. */
  public static ExecResult run(CommandKernel kernel, Path workDirectory, @Nullable String backendId, ExecSpec spec) {
    ExecutionRequest request = request(workDirectory, backendId, spec);
    ExecutionResult result;
    try {
      result = kernel.execute(request);
    } catch (CapabilityException e) {
      throw new KernelSandboxException(e.code(), String.join(" ", argv(spec)) + ": " + e.getMessage(), e);
    }
    return outcome(result, effectiveTimeout(kernel, spec));
  }

  /** The kernel request for {@code spec}: argv, the work directory as repository, the request environment and the timeout. */
  static ExecutionRequest request(Path workDirectory, @Nullable String backendId, ExecSpec spec) {
    ExecutionRequest.Builder request = ExecutionRequest.argv(argv(spec)).repository(workDirectory);
    if (backendId != null) {
      request.backend(backendId);
    }
    for (Map.Entry<String, String> variable : spec.env().entrySet()) {
      request.environment(variable.getKey(), variable.getValue());
    }
    if (spec.timeout() != null) {
      request.timeout(spec.timeout());
    }
    return request.build();
  }

  /**
   * The argv of {@code spec}: its command as given, or its shell command split without a shell.
   *
   * @throws KernelSandboxException {@code SHELL_SYNTAX} with the parser's reason when the shell
   *     command needs a shell
   */
  static List<String> argv(ExecSpec spec) {
    List<String> command = spec.command();
    if (!command.get(0).equals(SHELL_COMMAND_MARKER)) {
      return command;
    }
    if (command.size() != 2) {
      throw new IllegalArgumentException(
          "a shell command spec holds " + SHELL_COMMAND_MARKER + " and one command string, not " + command.size() + " elements");
    }
    try {
      return CommandStrings.split(command.get(1));
    } catch (ShellSyntaxException e) {
      throw new KernelSandboxException(KernelSandboxException.SHELL_SYNTAX,
          "the shell command needs a shell, and this sandbox never starts one: " + e.getMessage(), e);
    }
  }

  /** What the SPI makes of {@code result}: a completed run is a result; every other outcome is an exception. */
  static ExecResult outcome(ExecutionResult result, Duration timeout) {
    return switch (result.status()) {
      case COMPLETED -> new ExecResult(
          result.exitCode().orElseThrow(), result.stdout().text(), result.stderr().text(), duration(result.attestation()));
      case DENIED -> throw KernelSandboxException.denied(result);
      case TIMED_OUT -> {
        String message = String.join(" ", result.argv()) + ": timed out after " + timeout + "; the kernel ended its process tree";
        throw KernelSandboxException.ended(result, message, new TimeoutException(message, timeout));
      }
      case OUTPUT_LIMIT, MEMORY_LIMIT, PROCESS_LIMIT, FILE_SIZE_LIMIT, WRITE_LIMIT, LAUNCH_FAILED, WORKSPACE_REFUSED -> throw KernelSandboxException.ended(
          result, String.join(" ", result.argv()) + ": " + result.status() + ": " + result.failureMessage(), null);
    };
  }

  private static Duration effectiveTimeout(CommandKernel kernel, ExecSpec spec) {
    Duration policy = kernel.policy().policy().timeout();
    Duration requested = spec.timeout();
    return requested != null && requested.compareTo(policy) < 0 ? requested : policy;
  }

  private static Duration duration(Attestation attestation) {
    return Duration.between(attestation.startedAt(), attestation.finishedAt());
  }
}
