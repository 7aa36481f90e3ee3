package dev.capability.cli.internal;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.ledger.LedgerOptions;
import dev.capability.ledger.SqliteLedger;
import dev.capability.workflow.WorkPlans;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Options shared by {@code contract}, {@code work-plan} and {@code phase}: the policy, the
 * repository whose ledger holds the plan, and {@code --json}.
 */
final class WorkPlanOptions {
  /** No timed checkpoints: the ledger stays open while verification commands run in the repository. */
  private static final LedgerOptions WHILE_RUNNING = LedgerOptions.builder().checkpointMaxDelay(null).build();

  @Option(names = "--policy", paramLabel = "FILE",
      description = "The operator policy (JSON). Default: the file named by " + KernelOptions.POLICY_ENV
          + ", else $${XDG_CONFIG_HOME:-~/.config}/capability/policy.json.")
  Path policy;

  @Option(names = "--repo", paramLabel = "DIR", description = "The repository (default: the working directory).")
  Path repository;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Option(names = "--backend", paramLabel = "ID",
      description = "Decide and run the plan's commands on this backend (default: the strongest sandbox that fits, as for exec).")
  String backend;

  Path repository() {
    return (repository != null ? repository : Path.of("")).toAbsolutePath();
  }

  /** The kernel and the repository's ledger, for one command; close both. */
  Session open(Console console) {
    Path repo = repository();
    CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.load(
            PolicyLocation.resolve(Optional.ofNullable(policy), console.environment()).file(), repo))
        .hostEnvironment(console.environment())
        .build();
    try {
      SqliteLedger ledger = SqliteLedger.forRepository(repo, WHILE_RUNNING);
      WorkPlans.Builder plans = WorkPlans.builder(kernel, ledger, repo);
      if (backend != null) {
        plans.backend(backend);
      }
      return new Session(kernel, ledger, plans.build());
    } catch (RuntimeException e) {
      kernel.close();
      throw e;
    }
  }

  /** The UTF-8 text of {@code file}. */
  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (CharacterCodingException e) {
      throw new CapabilityException(CliCodes.INPUT_NOT_UTF8, file + " is not UTF-8");
    } catch (IOException e) {
      throw new CapabilityException(CliCodes.INPUT_UNREADABLE, file + " cannot be read: " + e.getMessage());
    }
  }

  /** A kernel, the ledger it records through and the work plans on them. */
  record Session(CommandKernel kernel, SqliteLedger ledger, WorkPlans plans) implements AutoCloseable {
    @Override
    public void close() {
      try {
        ledger.close();
      } finally {
        kernel.close();
      }
    }
  }
}
