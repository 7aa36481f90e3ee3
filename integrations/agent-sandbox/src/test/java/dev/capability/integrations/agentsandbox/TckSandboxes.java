package dev.capability.integrations.agentsandbox;

import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.ValueRule;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * The operator's side of the agent-sandbox TCK: a policy that allows exactly the commands the TCK
 * runs (and the request variable it gives), a kernel on one backend, and a work directory the
 * sandbox's uid can reach.
 */
public final class TckSandboxes {
  /** The host's PATH for every kernel of these tests. */
  public static final Map<String, String> HOST_ENVIRONMENT = Map.of("PATH", "/usr/bin:/bin");

  private TckSandboxes() {}

  /** The commands of {@code AbstractSandboxTCK}, under {@code network}. */
  public static ExecutionPolicy tckPolicy(NetworkMode network) {
    return ExecutionPolicy.builder()
        .network(network)
        .requestEnvironment("TEST_VAR")
        .executable(ExecutableRule.named("echo").arguments(ArgumentRules.builder().operands(OperandRule.any(ValueRule.string())).build()).build())
        .executable(ExecutableRule.named("printenv").exact("TEST_VAR").build())
        .executable(ExecutableRule.named("pwd").exact().build())
        .executable(ExecutableRule.named("sleep").exact("10").build())
        .executable(ExecutableRule.named("ls").exact("/nonexistent-directory").exact("/home").build())
        .build();
  }

  /** A kernel that runs on {@code backend} only, under {@code policy}. */
  public static CommandKernel kernel(ExecutionPolicy policy, ExecutionBackend backend) {
    return CommandKernel.builder(ExecutionPolicies.of(policy))
        .discoverBackends(false)
        .backend(backend)
        .hostEnvironment(HOST_ENVIRONMENT)
        .build();
  }

  /**
   * A new directory {@code work} in {@code temp}, which is opened to every uid first: sandboxes
   * run as {@code nobody} when the tests run as root.
   */
  public static Path workDirectory(Path temp) {
    try {
      Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
      return Files.createDirectory(temp.resolve("work")).toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The TCK's sandbox: {@link #tckPolicy} on {@code backend}, named explicitly, in a new work directory in {@code temp}. */
  public static KernelSandbox tckSandbox(ExecutionBackend backend, NetworkMode network, Path temp) {
    return KernelSandbox.builder(kernel(tckPolicy(network), backend), workDirectory(temp)).backend(backend.id()).build();
  }
}
