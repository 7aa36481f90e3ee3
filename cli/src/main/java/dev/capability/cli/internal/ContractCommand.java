package dev.capability.cli.internal;

import dev.capability.workflow.ProjectContract;
import dev.capability.workflow.WorkPlans;
import dev.capability.workflow.WorkflowCodes;
import dev.capability.workflow.WorkflowException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code capability contract}: show or set the repository's project contract (docs/workflow.md). */
@Command(name = "contract", description = "Show or set the repository's project contract.",
    subcommands = {ContractCommand.Show.class, ContractCommand.Set.class})
final class ContractCommand implements Callable<Integer> {
  private final Console console;

  ContractCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    console.err().println("capability: contract needs a subcommand: show or set; see 'capability contract --help'");
    return ExitCodes.USAGE;
  }

  /** {@code capability contract show}. */
  @Command(name = "show", description = "Print the contract in force.")
  static final class Show implements Callable<Integer> {
    private final Console console;

    @Mixin WorkPlanOptions options;

    Show(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      try (WorkPlanOptions.Session session = options.open(console)) {
        ProjectContract contract = session.plans().contract()
            .orElseThrow(() -> new WorkflowException(WorkflowCodes.CONTRACT_MISSING, "the repository has no project contract"));
        if (options.json) {
          console.json(WorkPlans.toJson(contract));
        } else {
          console.out().println(dev.capability.kernel.api.json.CanonicalJson.serialize(WorkPlans.toJson(contract)));
        }
        return ExitCodes.OK;
      }
    }
  }

  /** {@code capability contract set FILE}. */
  @Command(name = "set", description = "Check FILE against the operator policy and record it as the contract.")
  static final class Set implements Callable<Integer> {
    private final Console console;

    @Mixin WorkPlanOptions options;

    @Parameters(paramLabel = "FILE", description = "The contract (JSON).")
    Path file;

    Set(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      String json = WorkPlanOptions.read(file);
      try (WorkPlanOptions.Session session = options.open(console)) {
        ProjectContract contract = session.plans().setContract(json);
        if (options.json) {
          console.json(WorkPlans.toJson(contract));
        } else {
          console.out().println("contract set: writes " + contract.writeScopes() + ", assurance " + contract.assurance().jsonName()
              + contract.critic().map(c -> ", critic " + (c.blocking() ? "blocking" : "advisory")).orElse(", no critic"));
        }
        return ExitCodes.OK;
      }
    }
  }
}
