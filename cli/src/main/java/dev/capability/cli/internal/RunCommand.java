package dev.capability.cli.internal;

import dev.capability.capability.runtime.CapabilityPackage;
import dev.capability.capability.runtime.CapabilityPackages;
import dev.capability.capability.runtime.CapabilityPlan;
import dev.capability.capability.runtime.CapabilityRuntime;
import dev.capability.capability.runtime.ExecutionReceipt;
import dev.capability.capability.runtime.ExecutionReceipts;
import dev.capability.capability.runtime.PlanVerifier;
import dev.capability.capability.runtime.RunNotRecordedException;
import dev.capability.kernel.api.store.ApprovalRecord;
import dev.capability.kernel.api.store.CapabilityEvidenceStore;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.PlanRecord;
import dev.capability.kernel.api.store.ReceiptRecord;
import dev.capability.ledger.LedgerOptions;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code capability run}: plans, asks the policy, runs the plan and prints the receipt. Unless
 * {@code --no-ledger}, the runtime records the run as it happens in the ledger of {@code --repo}:
 * the plan, the approvals it was given, the kernel's launch and the receipt that names it.
 */
@Command(name = "run", description = "Run a capability package under the chosen policy and executor, print the receipt and record it in the ledger.")
final class RunCommand implements Callable<Integer> {
  /**
   * The ledger is open while the capability runs in the repository it lives in (from the plan on):
   * without timed checkpoints, it writes only when the runtime records, never during the launch's
   * audit.
   */
  private static final LedgerOptions WHILE_RUNNING = LedgerOptions.builder().checkpointMaxDelay(null).build();

  private final Console console;

  @Option(names = "--json", description = "Print the receipt as JSON.")
  boolean json;

  @Option(names = "--no-ledger", description = "Do not record the plan, approvals, launch and receipt in <repo>/.capability/state.db.")
  boolean noLedger;

  @Option(names = "--redact", description = "Record input and output in the ledger only as their SHA-256 (the printed receipt keeps them).")
  boolean redact;

  @Option(names = "--expect-plan", paramLabel = "FINGERPRINT",
      description = "Run only the plan with this fingerprint, as 'capability plan' printed it; refuse with PLAN_DRIFT when the plan made now differs.")
  String expectedPlan;

  @Mixin CapabilityRunOptions options = new CapabilityRunOptions();

  RunCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    ExecutionReceipt receipt;
    Recorded recorded = null;
    try (Recorded ledger = noLedger ? null : new Recorded(new RepositoryLedger(options.repository(), WHILE_RUNNING))) {
      recorded = ledger;
      CapabilityRuntime.Builder builder = options.runtimeBuilder();
      if (ledger != null) {
        builder.evidenceStore(ledger).approver("command line (--approve)").redactEvidence(redact);
      }
      try (CapabilityRuntime runtime = builder.build()) {
        CapabilityPackage pkg = CapabilityPackages.open(options.pkg);
        CapabilityPlan plan = runtime.plan(pkg, options.input);
        if (expectedPlan != null) {
          // Before the policy is asked: a plan other than the approved one is not decided, run or
          // recorded.
          PlanVerifier.verify(expectedPlan, plan);
        }
        // Running the plan made above, not a fresh one, is what binds the recorded plan to the receipt.
        receipt = runtime.run(plan, pkg, options.input);
      }
    } catch (RunNotRecordedException e) {
      // The run happened but its receipt could not be recorded: the receipt is still shown, then
      // ErrorReport prints the error and maps the exit code.
      e.receipt().ifPresent(this::print);
      throw e;
    }
    print(receipt);
    if (recorded == null) {
      if (!json) {
        console.out().println("recorded: no (--no-ledger)");
      }
    } else if (!json) {
      console.out().println("recorded: " + recorded.ledger.databaseFile().orElseThrow() + ", records " + recorded.first + "-" + recorded.last
          + " (plan, " + count(recorded.approvals, "approval") + (recorded.executions == 0 ? "" : ", " + count(recorded.executions, "execution"))
          + ", receipt)");
    }
    return ExitCodes.forReceipt(receipt);
  }

  private void print(ExecutionReceipt receipt) {
    Map<String, Object> view = ExecutionReceipts.toJson(receipt);
    if (json) {
      console.json(view);
    } else {
      new ReceiptText(console.out()).print(receipt);
    }
  }

  private static String count(long count, String noun) {
    return count + " " + noun + (count == 1 ? "" : "s");
  }

  /** The repository's ledger as the run's evidence store, noting what landed where for the closing line. */
  private static final class Recorded implements CapabilityEvidenceStore, AutoCloseable {
    private final RepositoryLedger ledger;
    private long first;
    private long last;
    private long approvals;
    private long executions;

    Recorded(RepositoryLedger ledger) {
      this.ledger = ledger;
    }

    private long noted(long sequence) {
      first = first == 0 ? sequence : first;
      last = sequence;
      return sequence;
    }

    @Override
    public long recordPlan(PlanRecord plan) {
      return noted(ledger.recordPlan(plan));
    }

    @Override
    public long recordApproval(ApprovalRecord approval) {
      approvals++;
      return noted(ledger.recordApproval(approval));
    }

    @Override
    public long recordExecution(ExecutionRecord execution) {
      executions++;
      return noted(ledger.recordExecution(execution));
    }

    @Override
    public long recordReceipt(ReceiptRecord receipt) {
      return noted(ledger.recordReceipt(receipt));
    }

    @Override
    public void close() {
      ledger.close();
    }
  }
}
