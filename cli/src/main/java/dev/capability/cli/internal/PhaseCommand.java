package dev.capability.cli.internal;

import dev.capability.workflow.CommandRun;
import dev.capability.workflow.PhaseCompletion;
import dev.capability.workflow.PhaseStatus;
import dev.capability.workflow.PhaseVerification;
import dev.capability.workflow.WorkPlans;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code capability phase}: verify and complete the active phase of the work plan (docs/workflow.md). */
@Command(name = "phase", description = "Verify and complete the active phase of the repository's work plan.",
    subcommands = {PhaseCommand.Verify.class, PhaseCommand.Complete.class, PhaseCommand.Status.class})
final class PhaseCommand implements Callable<Integer> {
  private final Console console;

  PhaseCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    console.err().println("capability: phase needs a subcommand: verify, complete or status; see 'capability phase --help'");
    return ExitCodes.USAGE;
  }

  /** {@code capability phase verify}. */
  @Command(name = "verify", description = "Run the active phase's acceptance commands through the kernel, audit the phase's change, run the critic.")
  static final class Verify implements Callable<Integer> {
    private final Console console;

    @Mixin WorkPlanOptions options;

    @Option(names = "--selective", description = "Also run the phase's selective-test commands.")
    boolean selective;

    @Option(names = "--full-suite", description = "Also run the phase's full-suite command (completion needs it when the phase has one).")
    boolean fullSuite;

    Verify(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      try (WorkPlanOptions.Session session = options.open(console)) {
        PhaseVerification verification = session.plans().verify(selective, fullSuite);
        if (options.json) {
          console.json(WorkPlans.toJson(verification));
        } else {
          for (CommandRun run : verification.runs()) {
            console.out().println(run.stage() + " " + (run.passed() ? "passed" : "FAILED") + ": " + run.command()
                + run.exitCode().map(code -> " (exit " + code + ")").orElse(" (" + run.status() + ")"));
          }
          verification.critic().ifPresent(c -> console.out().println("critic " + (c.approved() ? "approved" : "rejected")
              + (c.blocking() ? "" : " (advice)")));
          console.out().println("phase " + verification.phaseId() + (verification.passed() ? " verified" : " not verified: "
              + verification.failureCode().orElseThrow() + ": " + verification.message()));
        }
        return verification.passed() ? ExitCodes.OK : ExitCodes.VERIFICATION_FAILED;
      }
    }
  }

  /** {@code capability phase complete}. */
  @Command(name = "complete", description = "Complete the active phase on its last verification; the next phase becomes active.")
  static final class Complete implements Callable<Integer> {
    private final Console console;

    @Mixin WorkPlanOptions options;

    Complete(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      try (WorkPlanOptions.Session session = options.open(console)) {
        PhaseCompletion completion = session.plans().complete();
        if (options.json) {
          console.json(WorkPlans.toJson(completion));
        } else {
          console.out().println("phase " + completion.phaseId() + " completed on tree " + completion.inputTreeHash()
              + completion.nextPhaseId().map(next -> "; active: " + next).orElse("; every phase is complete"));
        }
        return ExitCodes.OK;
      }
    }
  }

  /** {@code capability phase status}. */
  @Command(name = "status", description = "Print the completed phases, the active one and its last verification.")
  static final class Status implements Callable<Integer> {
    private final Console console;

    @Mixin WorkPlanOptions options;

    Status(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      try (WorkPlanOptions.Session session = options.open(console)) {
        PhaseStatus status = session.plans().status();
        if (options.json) {
          console.json(WorkPlans.toJson(status));
        } else {
          console.out().println("work plan " + status.workPlanId() + " revision " + status.revision() + "; completed " + status.completed()
              + "; active " + status.active().orElse("none") + status.lastVerification()
                  .map(v -> "; last verification " + (v.passed() ? "passed" : "failed " + v.failureCode().orElseThrow())).orElse(""));
        }
        return ExitCodes.OK;
      }
    }
  }
}
