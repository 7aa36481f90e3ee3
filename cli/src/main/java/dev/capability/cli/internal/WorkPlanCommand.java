package dev.capability.cli.internal;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.workflow.PlanWarning;
import dev.capability.workflow.PlaybookHint;
import dev.capability.workflow.WorkPlanRevision;
import dev.capability.workflow.WorkPlans;
import dev.capability.workflow.WorkflowCodes;
import dev.capability.workflow.WorkflowException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code capability work-plan}: save, amend and show the repository's work plan (docs/workflow.md). */
@Command(name = "work-plan", description = "Save, amend and show the repository's work plan.",
    subcommands = {WorkPlanCommand.Save.class, WorkPlanCommand.Amend.class, WorkPlanCommand.Show.class, WorkPlanCommand.Warnings.class})
final class WorkPlanCommand implements Callable<Integer> {
  private final Console console;

  WorkPlanCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    console.err().println("capability: work-plan needs a subcommand: save, amend, show or warnings; see 'capability work-plan --help'");
    return ExitCodes.USAGE;
  }

  private static void report(Console console, WorkPlanOptions options, WorkPlanRevision revision, String verb) {
    List<PlaybookHint> hints = List.of();
    try {
      hints = PlaybookCommand.hintsIfEnabled(console, revision.plan());
    } catch (CapabilityException e) {
      // The hints are advice about a revision already recorded: an unusable playbook is reported, the save stands.
      console.err().println("capability: no playbook hints: " + e.code() + ": " + e.getMessage());
    }
    if (options.json) {
      Map<String, Object> view = new LinkedHashMap<>(WorkPlans.toJson(revision, false));
      view.put("playbookHints", hints.stream().map(PlaybookCommand::hintView).toList());
      console.json(view);
      return;
    }
    console.out().println(verb + " work plan " + revision.plan().id() + " revision " + revision.revision() + " ("
        + revision.plan().phases().size() + " phases, " + revision.warnings().size() + " warnings)");
    printWarnings(console, revision);
    hints.forEach(hint -> console.out().println("playbook: " + hint.message()));
  }

  private static void printWarnings(Console console, WorkPlanRevision revision) {
    for (PlanWarning warning : revision.warnings()) {
      console.out().println("warning " + warning.code() + " at " + (warning.pointer().isEmpty() ? "/" : warning.pointer()) + ": " + warning.message());
    }
  }

  private static WorkPlanRevision current(WorkPlanOptions.Session session) {
    return session.plans().current()
        .orElseThrow(() -> new WorkflowException(WorkflowCodes.WORK_PLAN_MISSING, "the repository has no work plan"));
  }

  /** {@code capability work-plan save FILE}. */
  @Command(name = "save", description = "Validate FILE and record it as revision 1 of a new work plan; its first phase becomes active.")
  static final class Save implements Callable<Integer> {
    private final Console console;

    @Mixin WorkPlanOptions options;

    @Parameters(paramLabel = "FILE", description = "The work plan (JSON).")
    Path file;

    Save(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      String json = WorkPlanOptions.read(file);
      try (WorkPlanOptions.Session session = options.open(console)) {
        report(console, options, session.plans().save(json), "saved");
        return ExitCodes.OK;
      }
    }
  }

  /** {@code capability work-plan amend PATCH}. */
  @Command(name = "amend", description = "Apply the RFC 6902 JSON Patch in PATCH to the plan in force, validate the result and record it.")
  static final class Amend implements Callable<Integer> {
    private final Console console;

    @Mixin WorkPlanOptions options;

    @Parameters(paramLabel = "PATCH", description = "The patch (JSON).")
    Path file;

    Amend(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      String json = WorkPlanOptions.read(file);
      try (WorkPlanOptions.Session session = options.open(console)) {
        report(console, options, session.plans().amend(json), "amended");
        return ExitCodes.OK;
      }
    }
  }

  /** {@code capability work-plan show}. */
  @Command(name = "show", description = "Print the plan in force with its revision.")
  static final class Show implements Callable<Integer> {
    private final Console console;

    @Mixin WorkPlanOptions options;

    Show(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      try (WorkPlanOptions.Session session = options.open(console)) {
        WorkPlanRevision revision = current(session);
        if (options.json) {
          console.json(WorkPlans.toJson(revision, true));
        } else {
          Map<String, Object> plan = WorkPlans.toJson(revision.plan());
          console.out().println("work plan " + revision.plan().id() + " revision " + revision.revision() + " " + revision.revisionHash());
          console.out().println(CanonicalJson.serialize(plan));
        }
        return ExitCodes.OK;
      }
    }
  }

  /** {@code capability work-plan warnings}. */
  @Command(name = "warnings", description = "Print the warnings the plan in force was saved with.")
  static final class Warnings implements Callable<Integer> {
    private final Console console;

    @Mixin WorkPlanOptions options;

    Warnings(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      try (WorkPlanOptions.Session session = options.open(console)) {
        WorkPlanRevision revision = current(session);
        if (options.json) {
          console.json(Map.of("warnings", WorkPlans.warningsToJson(revision.warnings())));
        } else {
          printWarnings(console, revision);
        }
        return ExitCodes.OK;
      }
    }
  }
}
