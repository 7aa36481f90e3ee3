package dev.capability.examples.agentsandbox;

import dev.capability.integrations.agentsandbox.KernelSandbox;
import dev.capability.integrations.agentsandbox.KernelSandboxException;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.ValueRule;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springaicommunity.sandbox.ExecResult;
import org.springaicommunity.sandbox.ExecSpec;
import org.springaicommunity.sandbox.Sandbox;

/**
 * An agent framework's {@link Sandbox}, backed by the kernel: the host fixes the operator's policy
 * ({@code cat} on paths inside the work directory, nothing else, no network, no writes by
 * commands), and the "agent" only proposes. It writes a file through the sandbox, reads
 * it back with {@code cat} in a Bubblewrap sandbox, and has a shell pipeline and an {@code rm}
 * refused, printing one line per step.
 *
 * <p>Usage: {@code AgentSandboxExample WORK_DIRECTORY}, an existing directory the sandbox's user
 * can reach (when run as root, sandboxes run as {@code nobody}).
 */
public final class AgentSandboxExample {
  /** The operator's policy, fixed by the host: never by the agent. */
  static final ExecutionPolicy POLICY = ExecutionPolicy.builder()
      .inheritEnvironment("PATH", "LANG")
      .executable(ExecutableRule.named("cat").arguments(ArgumentRules.builder().operands(OperandRule.atLeast(ValueRule.path(), 1)).build()).build())
      .build();

  private AgentSandboxExample() {}

  public static void main(String[] args) {
    if (args.length != 1) {
      System.err.println("usage: AgentSandboxExample WORK_DIRECTORY");
      System.exit(2);
    }
    run(Path.of(args[0])).forEach(System.out::println);
  }

  /** The agent's steps in {@code workDirectory}, one line each. */
  static List<String> run(Path workDirectory) {
    List<String> lines = new ArrayList<>();
    try (CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.of(POLICY)).build();
        Sandbox sandbox = KernelSandbox.builder(kernel, workDirectory).build()) {
      sandbox.files().create("notes/todo.txt", "write the docs\nrun the TCK\n");
      lines.add("wrote notes/todo.txt: " + sandbox.files().exists("notes/todo.txt"));
      lines.add(attempt(sandbox, ExecSpec.of("cat", "notes/todo.txt")));
      lines.add(attempt(sandbox, ExecSpec.builder().shellCommand("cat notes/todo.txt | wc -l").build()));
      lines.add(attempt(sandbox, ExecSpec.of("rm", "-rf", "notes")));
    }
    return lines;
  }

  /** What became of one proposed command: its exit code and output, or the code and reason it was refused. */
  static String attempt(Sandbox sandbox, ExecSpec spec) {
    try {
      ExecResult result = sandbox.exec(spec);
      return spec.command() + ": exit " + result.exitCode() + ": " + result.stdout().replace("\n", "\\n");
    } catch (KernelSandboxException e) {
      return spec.command() + ": refused " + e.code() + ": " + e.getMessage();
    }
  }
}
