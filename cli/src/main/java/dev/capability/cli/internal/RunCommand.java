package dev.capability.cli.internal;

import dev.capability.capability.runtime.Approval;
import dev.capability.capability.runtime.CapabilityPackage;
import dev.capability.capability.runtime.CapabilityPackages;
import dev.capability.capability.runtime.CapabilityPlan;
import dev.capability.capability.runtime.CapabilityRuntime;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.ExecutionReceipt;
import dev.capability.capability.runtime.ExecutionReceipts;
import dev.capability.capability.runtime.PlanVerifier;
import dev.capability.ledger.Appended;
import dev.capability.ledger.LedgerRecord;
import dev.capability.ledger.RecordKind;
import dev.capability.ledger.SqliteLedger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code capability run}: plans, asks the policy, runs the plan and prints the receipt; then records
 * the plan, the approvals it was given and the receipt in the ledger of {@code --repo}.
 */
@Command(name = "run", description = "Run a capability package under the chosen policy and executor, print the receipt and record it in the ledger.")
final class RunCommand implements Callable<Integer> {
  private final Console console;

  @Option(names = "--json", description = "Print the receipt as JSON.")
  boolean json;

  @Option(names = "--no-ledger", description = "Do not record the plan, approvals and receipt in <repo>/.capability/state.db.")
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
    CapabilityPlan plan;
    ExecutionReceipt receipt;
    try (CapabilityRuntime runtime = options.runtime()) {
      CapabilityPackage pkg = CapabilityPackages.open(options.pkg);
      plan = runtime.plan(pkg, options.input);
      if (expectedPlan != null) {
        // Before the policy is asked: a plan other than the approved one is not decided, run or recorded.
        PlanVerifier.verify(expectedPlan, plan);
      }
      // Running the plan made above, not a fresh one, is what binds the recorded plan to the receipt.
      receipt = runtime.run(plan, pkg, options.input);
    }
    Map<String, Object> view = ExecutionReceipts.toJson(receipt);
    if (json) {
      console.json(view);
    } else {
      new ReceiptText(console.out()).print(receipt);
    }
    if (noLedger) {
      if (!json) {
        console.out().println("recorded: no (--no-ledger)");
      }
    } else {
      // After the report: the capability ran, and its receipt is shown even if the ledger fails.
      Recorded recorded = record(plan, receipt);
      if (!json) {
        console.out().println("recorded: " + recorded.database() + ", records " + recorded.first() + "-" + recorded.last()
            + " (plan, " + approvals(recorded.last() - recorded.first() - 1) + ", receipt)");
      }
    }
    return ExitCodes.forReceipt(receipt);
  }

  private static String approvals(long count) {
    return count == 1 ? "1 approval" : count + " approvals";
  }

  /** Where {@link #record} put the run: the ledger file and the sequence numbers of its first and last record. */
  private record Recorded(Path database, long first, long last) {}

  private Recorded record(CapabilityPlan plan, ExecutionReceipt receipt) {
    List<LedgerRecord> records = new ArrayList<>();
    Map<String, Object> planBody = new LinkedHashMap<>();
    planBody.put("fingerprint", plan.fingerprint());
    planBody.put("capability", plan.capability());
    planBody.put("plan", plan.toJson());
    records.add(LedgerRecord.of(RecordKind.PLAN, planBody));
    synchronized (options.answered) {
      for (Approval approval : options.answered) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("fingerprint", approval.planFingerprint());
        body.put("approved", approval.approved());
        body.put("approver", "command line (--approve)");
        body.put("reason", approval.reason());
        body.put("effects", approval.effects().stream().map(Effect::toCanonical).toList());
        records.add(LedgerRecord.of(RecordKind.APPROVAL, body));
      }
    }
    records.add(LedgerRecord.of(RecordKind.RECEIPT, ExecutionReceipts.toJson(redact ? receipt.redact() : receipt)));
    try (SqliteLedger ledger = SqliteLedger.forRepository(options.repository())) {
      List<Appended> appended = records.stream().map(ledger::append).toList();
      return new Recorded(ledger.databaseFile(), appended.get(0).sequence(), appended.get(appended.size() - 1).sequence());
    }
  }
}
