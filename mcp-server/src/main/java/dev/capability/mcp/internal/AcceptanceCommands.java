package dev.capability.mcp.internal;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ShellSyntaxException;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.CommandStrings;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.mcp.McpCodes;
import dev.capability.mcp.McpServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The acceptance commands the operator configures for the HTTP server, checked before it listens:
 * each is split without a shell, and the operator's policy must allow it, in every allowed root,
 * by one of its exact argument lists ({@code "exact": [[...]]}), not by a typed rule a crafted
 * argument could satisfy.
 */
public final class AcceptanceCommands {
  private AcceptanceCommands() {}

  /**
   * @throws CapabilityException {@link McpCodes#CONFIG_INVALID} naming the command and why: shell
   *     syntax (with the construct), refused by the policy (with its code and rule), or allowed only
   *     by a rule that is not an exact argument list
   * @return the commands' argument lists, in order: the only commands a plan saved over HTTP may name
   */
  public static List<List<String>> requireExact(McpServerConfig config, List<ExecutionBackend> backends, List<String> commands) {
    List<List<String>> argvs = new ArrayList<>();
    for (String command : commands) {
      List<String> argv;
      try {
        argv = CommandStrings.split(command);
      } catch (ShellSyntaxException e) {
        throw invalid(command, "it is not a plain command: " + e.code() + " (" + e.construct() + " at " + e.offset() + ")");
      }
      if (argv.isEmpty()) {
        throw invalid(command, "it is empty");
      }
      for (Path root : config.allowedRoots()) {
        CommandKernel.Builder builder = CommandKernel.builder(ExecutionPolicies.load(config.policyFile(), root))
            .discoverBackends(false)
            .hostEnvironment(config.hostEnvironment());
        backends.forEach(builder::backend);
        // Not closed: closing a kernel closes the backends, which the server shares.
        Decision decision = builder.build().check(ExecutionRequest.argv(argv).repository(root).build()).decision();
        if (!decision.allowed()) {
          throw invalid(command, "the operator policy refuses it in " + root + ": " + decision.code() + " (" + decision.rule() + ")");
        }
        if (!decision.rule().contains(".exact[")) {
          throw invalid(command, "the operator policy allows it by the rule " + decision.rule()
              + ", not by one of its exact argument lists; an HTTP acceptance command must be written out in full by the operator");
        }
      }
      argvs.add(argv);
    }
    return List.copyOf(argvs);
  }

  private static CapabilityException invalid(String command, String why) {
    return new CapabilityException(McpCodes.CONFIG_INVALID, "the acceptance command '" + command + "' is not an exact operator-owned command: " + why);
  }
}
